// `driftctl cluster init | join-config`: a cluster from files. init makes a new cluster on the
// first PC (a new secret, its /etc/drift/driftd.conf with its identity); join-config prints the
// config of the next PC from a running member's (seeds filled in). Neither contacts a daemon.
#pragma once

#include <string>
#include <vector>

namespace drift::ctl {

int cluster_command(const std::vector<std::string>& args);

}  // namespace drift::ctl
