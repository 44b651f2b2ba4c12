// One run of a fault scenario, start to end: computes each job's serial reference, sets up the
// network (namespaces when the scenario partitions) and starts its own local cluster with the
// daemons' test hooks on, starts CPU hogs and the status observer, runs the jobs (fault_jobs.h)
// while the scheduler here fires the faults at their times or steps and undoes the timed ones,
// then stops everything — daemons, hogs, namespaces, nftables rules — on every path out, SIGINT
// and SIGTERM included. Returns the raw record; the caller removes a temporary directory
// (record.dir_kept false) once it knows the run passed.
#pragma once

#include <cstdint>
#include <string>

#include "ctl/fault_record.h"
#include <drift/status.h>

namespace drift::ctl {

struct FaultRunOptions {
  std::string dir;          // empty: a fresh directory under /tmp, removed afterwards
  bool keep_dir = false;    // keep configs and logs (always kept when the run fails)
  std::uint16_t base_port = 7700;
  std::string driftd;       // empty: beside driftctl, else on PATH
  std::uint64_t seed = 0;   // for random/worker picks and `every` gaps; 0: from the clock
  bool verbose = false;     // a line on stderr per fault as it happens
};

// An error when the run could not start (bad environment, cluster would not come up); a run
// that started always yields a record, with `aborted` set if it had to stop early.
Result<FaultRunRecord> run_fault_scenario(const FaultScenario& scenario,
                                          const FaultRunOptions& options);

}  // namespace drift::ctl
