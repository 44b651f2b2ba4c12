// `driftctl status [--json]`: asks one daemon for its view of the cluster (members, their state
// and load) and prints it as a table or as JSON (status_view.h).
#pragma once

#include <string>
#include <vector>

#include "ctl/connection_settings.h"

namespace drift::ctl {

int status_command(const std::vector<std::string>& args, ConnectionSettings settings);

}  // namespace drift::ctl
