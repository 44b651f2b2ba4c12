// One line of a scenario's [faults] section, e.g. "at 2.5s kill root", "at step 40 stop 3 for
// 2s", "at 4s partition 1,2 | rest for 3s", "every 30s..60s kill random" (grammar in
// conf/faults/README.md), and the small values the scenario header uses too (durations,
// fractions). Errors quote the bad word and say what was expected; the caller adds file:line.
#pragma once

#include <string>

#include "ctl/fault_scenario.h"
#include <drift/status.h>

namespace drift::ctl {

// "2.5s", "500ms", "2m" -> seconds (>= 0).
Result<double> parse_duration(const std::string& word);
// "0.01" -> 0.01; must be in [0, 1].
Result<double> parse_fraction(const std::string& word);
// "3", "node3", "root", "random", "worker"; numbers must be 1..nodes.
Result<NodeRef> parse_node_ref(const std::string& word, int nodes);

// The line without its comment; `nodes` bounds node numbers.
Result<FaultEntry> parse_fault_line(const std::string& line, int nodes);

}  // namespace drift::ctl
