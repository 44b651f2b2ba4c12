// Submitting a job to a daemon and following it to the end: RunRequest, then a stream of
// JobProgress, closed by JobResult or JobFailed. A job failing is an outcome, not an error;
// errors are the connection's (lost, timed out, unexpected message).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <variant>

#include "ctl/client_connection.h"
#include "ctl/job_reattach.h"
#include "protocol/messages.h"

namespace drift::ctl {

using JobEndMessage = std::variant<JobResult, JobFailed>;
using ProgressHandler = std::function<void(const JobProgress&)>;
using NoticeHandler = std::function<void(const JobNotice&)>;

// A JobSpec from the user's choices; drift's own runtime options stay at their defaults.
JobSpec job_spec(std::string app, std::uint32_t tasks, std::uint64_t steps,
                 std::map<std::string, std::string> params);

// Waits at most until `deadline` (Clock::time_point::max(): as long as the job takes). Notices
// (a recovery after a node failure, a new root) go to `on_notice`. With `reattach`, losing the
// job's root is not the end: the job is followed on to its new root (job_reattach.h), and
// on_notice hears of the loss (kind kRootChanged, node 0) before the new root's notice.
Result<JobEndMessage> run_job(ClientConnection& connection, const JobSpec& spec,
                              const ProgressHandler& on_progress, Clock::time_point deadline,
                              const NoticeHandler& on_notice = {},
                              const Reattach* reattach = nullptr);

// The same for a job already running (`driftctl attach`): sends JobAttach for `job` on
// `connection` (its root's) and follows the job to its end; a job that ended already answers
// with its end at once. `what` names the job in errors.
Result<JobEndMessage> attach_job(ClientConnection& connection, std::uint64_t job,
                                 const std::string& what, const ProgressHandler& on_progress,
                                 Clock::time_point deadline, const NoticeHandler& on_notice = {},
                                 const Reattach* reattach = nullptr);

}  // namespace drift::ctl
