// `driftctl run APP [--tasks N] [--steps S] [app options] [--json] [--serial]`: validates the job
// locally with the application's own rules, then either runs it on the cluster (RunRequest to
// --node, progress bar while it runs) or, with --serial, runs the application's serial reference
// here. Exit 0 done, 1 the job failed, 2 bad options, 3 no daemon or the connection was lost.
#pragma once

#include <string>
#include <vector>

#include "node/ctl/connection_settings.h"

namespace drift::ctl {

int run_command(const std::vector<std::string>& args, ConnectionSettings settings);

}  // namespace drift::ctl
