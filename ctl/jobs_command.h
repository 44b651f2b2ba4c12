// `driftctl jobs`, `attach`, `cancel` and `result`: jobs that outlive the driftctl that submitted
// them (docs/architecture.md §6.6). `submit` is run_command's.
//   jobs [--all] [--json]      every member's jobs, running and ended lately (yours, or all)
//   attach JOB [--json]        follow a job to its end, as `run` does
//   cancel JOB                 end it now (its owner or an admin)
//   result JOB [--json] [--forget]  a finished job's report (exit 1 if it failed, was
//                              cancelled or is still running); --forget drops it once printed
#pragma once

#include <string>
#include <vector>

#include "ctl/connection_settings.h"

namespace drift::ctl {

int jobs_command(const std::string& command, const std::vector<std::string>& args,
                 ConnectionSettings settings);

// `cancel JOB`: finds the job's root from the node `connect` names, cancels the job there and
// prints "job 0x…: cancelled by NAME"; driftctl's exit status. Also what a second Ctrl-C
// answered with "y" does (ctl/interrupt_watch.h).
int cancel_and_say(const ConnectOptions& connect, std::uint64_t job);

}  // namespace drift::ctl
