// Submitting a job to a daemon and following it to the end: RunRequest, then a stream of
// JobProgress, closed by JobResult or JobFailed. A job failing is an outcome, not an error;
// errors are the connection's (lost, timed out, unexpected message).
#pragma once

#include <functional>
#include <variant>

#include "node/ctl/client_connection.h"
#include "protocol/messages.h"

namespace drift::ctl {

using JobEndMessage = std::variant<JobResult, JobFailed>;
using ProgressHandler = std::function<void(const JobProgress&)>;

// Waits at most until `deadline` (Clock::time_point::max(): as long as the job takes).
Result<JobEndMessage> run_job(ClientConnection& connection, const JobSpec& spec,
                              const ProgressHandler& on_progress, Clock::time_point deadline);

}  // namespace drift::ctl
