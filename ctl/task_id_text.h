// How driftctl writes job and task ids, and reads them back from the command line. A job id is
// printed in hex with a 0x prefix ("0x1a2b3c0001"; `run`, `tasks`, `migrate`, text and JSON alike),
// a task as JOB:INDEX ("0x1a2b3c0001:5"). Read back: a job in hex with 0x, or in decimal.
#pragma once

#include <cstdint>
#include <string>

#include <drift/status.h>
#include "protocol/wire_types.h"

namespace drift::ctl {

std::string format_job_id(std::uint64_t job);
std::string format_task_id(const TaskId& task);

// "0x1a2b3c0001" or "112394715137"; errors name the text.
Result<std::uint64_t> parse_job_id(const std::string& text);
// "JOB:INDEX"; errors name the text and which half is wrong.
Result<TaskId> parse_task_id(const std::string& text);

}  // namespace drift::ctl
