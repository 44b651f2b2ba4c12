// `driftctl local up --nodes N [--base-port P] [--dir DIR] [--base-config FILE]` and
// `driftctl local down [--dir DIR]`: a cluster of N daemons on this machine (local_cluster.h).
#pragma once

#include <string>
#include <vector>

namespace drift::ctl {

int local_command(const std::vector<std::string>& args);

}  // namespace drift::ctl
