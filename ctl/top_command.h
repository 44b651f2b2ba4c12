// `driftctl top [--interval S] [--once] [--all]`: the cluster live in a terminal — the members'
// table of `status` and the jobs' table of `jobs`, refreshed every S seconds (the screen cleared
// on a terminal; frames one after another otherwise), for machines without a browser.
#pragma once

#include <string>
#include <vector>

#include "ctl/connection_settings.h"

namespace drift::ctl {

int top_command(const std::vector<std::string>& args, ConnectionSettings settings);

}  // namespace drift::ctl
