// Running one benchmark job on the cluster through driftctl's own client (ctl/job_client.h)
// and checking its outcome: a JobFailed, a lost connection, a timeout, or a checksum other than
// the application's serial reference is an error naming the job. While the job runs, every
// JobProgress goes to `on_progress` (its first one carries the job id), which may block to
// drive other requests on other connections; JobNotices (recoveries) go to `on_notice`.
#pragma once

#include <chrono>

#include "ctl/client_connection.h"
#include "ctl/job_client.h"
#include "protocol/messages.h"
#include <drift/status.h>

namespace drift::bench {

Result<JobResult> run_checked_job(ctl::ClientConnection& connection, JobSpec spec,
                                  const ctl::ProgressHandler& on_progress,
                                  std::chrono::milliseconds timeout,
                                  const ctl::NoticeHandler& on_notice = {});

// "chatter 8 tasks, 400 steps, fanout=4 payload=64": how errors and notes name a job.
std::string describe_job(const JobSpec& spec);

}  // namespace drift::bench
