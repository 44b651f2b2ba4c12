// The report `driftctl fault run` prints: the scenario and cluster, each job's result against
// its serial reference (wall time, recoveries, steps recomputed, the root's notices), a table of
// the injected faults (when, which nodes, suspected/detected after, recovery, steps recomputed),
// false suspicions and false deaths, the daemons' own counters, and the checks with the verdict.
// Text for people, or one JSON object (--json) with the same facts; times in seconds.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "ctl/fault_analysis.h"
#include "ctl/fault_record.h"

namespace drift::ctl {

std::string fault_report_text(const FaultRunRecord& record, const FaultAnalysis& analysis);
nlohmann::json fault_report_json(const FaultRunRecord& record, const FaultAnalysis& analysis);

}  // namespace drift::ctl
