// Reads a scenario file (conf/faults/README.md): INI-like sections [cluster], [job] (one or more),
// [expect] and [faults]. Every error is "FILE:LINE: ..." quoting the bad key or value. Job
// parameters are checked with the application's own rules, as `driftctl run` checks them.
#pragma once

#include <string>

#include "ctl/fault_scenario.h"
#include <drift/status.h>

namespace drift::ctl {

// `file` names the text in errors; relative paths in it (base_config) are relative to its folder.
Result<FaultScenario> parse_fault_scenario(const std::string& text, const std::string& file);

Result<FaultScenario> load_fault_scenario(const std::string& file);

}  // namespace drift::ctl
