#include "ctl/job_client.h"

#include <algorithm>

#include "protocol/codec.h"

namespace drift::ctl {

JobSpec job_spec(std::string app, std::uint32_t tasks, std::uint64_t steps,
                 std::map<std::string, std::string> params) {
  JobSpec spec;
  spec.app = std::move(app);
  spec.tasks = tasks;
  spec.steps = steps;
  spec.params = std::move(params);
  return spec;
}

Result<JobEndMessage> run_job(ClientConnection& connection, const JobSpec& spec,
                              const ProgressHandler& on_progress, Clock::time_point deadline,
                              const NoticeHandler& on_notice, const Reattach* reattach) {
  if (Status s = connection.send(RunRequest{spec}); !s) return s;
  ClientConnection* current = &connection;
  std::unique_ptr<ClientConnection> replacement;
  std::uint64_t job = 0;  // known from the first progress or notice
  std::uint64_t steps_seen = 0;
  auto notify = [&](const JobNotice& n) {
    if (on_notice) on_notice(n);
  };
  // The root is gone (or says it is no longer the root): find the new one.
  auto follow_on = [&](const std::string& why) -> Status {
    if (!reattach || job == 0) return Status::error("job " + spec.app + ": " + why);
    notify(JobNotice{job, JobNoticeKind::kRootChanged, 0, 0, 0, 0,
                     "lost the job's root " + current->address() + " (" + why +
                         "); looking for its new root"});
    auto attached = reattach_job(*reattach, job, current->address(), steps_seen);
    if (!attached) return Status::error("job " + spec.app + ": " + why + "; " + attached.error());
    replacement = std::move(attached->connection);
    current = replacement.get();
    notify(attached->notice);
    return Status::ok();
  };
  for (;;) {
    auto msg = current->receive(deadline);
    if (!msg) {
      if (Clock::now() >= deadline) return Status::error("job " + spec.app + ": " + msg.error());
      if (Status s = follow_on(msg.error()); !s) return s;
      continue;
    }
    if (auto* progress = std::get_if<JobProgress>(&*msg)) {
      job = progress->job;
      steps_seen = std::max(steps_seen, progress->step);
      if (on_progress) on_progress(*progress);
    } else if (auto* notice = std::get_if<JobNotice>(&*msg)) {
      job = notice->job;
      if (notice->kind == JobNoticeKind::kNotHere) {
        if (Status s = follow_on(notice->text); !s) return s;
        continue;
      }
      notify(*notice);
    } else if (auto* result = std::get_if<JobResult>(&*msg)) {
      return JobEndMessage(std::move(*result));
    } else if (auto* failed = std::get_if<JobFailed>(&*msg)) {
      return JobEndMessage(std::move(*failed));
    } else {
      return Status::error(current->address() + " sent " + to_string(type_of(*msg)) +
                           " while running job " + spec.app);
    }
  }
}

}  // namespace drift::ctl
