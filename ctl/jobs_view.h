// How driftctl shows a list of jobs (`jobs`, `top`): a table — JOB NAME OWNER APP STATE STEP
// ELAPSED NODES ROOT — then, for each queued job, why it waits.
#pragma once

#include <string>
#include <vector>

#include "protocol/job_messages.h"

namespace drift::ctl {

std::string jobs_table(const std::vector<JobEntry>& jobs);

}  // namespace drift::ctl
