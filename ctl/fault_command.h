// `driftctl fault run SCENARIO [--json] [options]`: runs a failure-injection scenario
// (conf/faults/README.md) on a local cluster of its own and prints the report; exit 0 when every
// check of the scenario passed, 1 when one failed or the run could not start (not root for a
// partition, cluster did not come up), 2 for a bad option or scenario file (FILE:LINE named).
// `driftctl fault check SCENARIO...` only parses scenario files.
#pragma once

#include <string>
#include <vector>

namespace drift::ctl {

int fault_command(const std::vector<std::string>& args);

}  // namespace drift::ctl
