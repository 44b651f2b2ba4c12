#include "ctl/job_client.h"

#include <algorithm>
#include <memory>
#include <optional>

#include "ctl/exit_codes.h"
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

namespace {

// Reads the job's messages on `connection` to its end (job 0: not known yet, the first
// progress or notice names it), following it to a new root with `reattach`.
Result<JobEndMessage> follow_job(ClientConnection& connection, std::uint64_t job,
                                 const std::string& what, const ProgressHandler& on_progress,
                                 Clock::time_point deadline, const NoticeHandler& on_notice,
                                 const Reattach* reattach) {
  ClientConnection* current = &connection;
  std::unique_ptr<ClientConnection> replacement;
  std::uint64_t steps_seen = 0;
  auto notify = [&](const JobNotice& n) {
    if (on_notice) on_notice(n);
  };
  std::optional<WireMessage> ended;  // the job ended while we looked for its root
  // The root is gone (or says it is no longer the root): find the new one.
  auto follow_on = [&](const std::string& why) -> Status {
    if (!reattach || job == 0) return Status::error("job " + what + ": " + why);
    notify(JobNotice{job, JobNoticeKind::kRootChanged, 0, 0, 0, 0,
                     "lost the job's root " + current->address() + " (" + why +
                         "); looking for its new root"});
    auto attached = reattach_job(*reattach, job, current->address(), steps_seen);
    if (!attached) return Status::error("job " + what + ": " + why + "; " + attached.error());
    replacement = std::move(attached->connection);
    current = replacement.get();
    if (attached->end) {
      ended = std::move(attached->end);
    } else {
      notify(attached->notice);
    }
    return Status::ok();
  };
  for (;;) {
    auto msg = ended ? Result<WireMessage>(std::move(*ended)) : current->receive(deadline);
    ended.reset();
    if (!msg) {
      // Refused for who we are, or out of time: no other root would say otherwise.
      if (msg.error().starts_with(kRefusedPrefix)) return msg.status();
      if (Clock::now() >= deadline) return Status::error("job " + what + ": " + msg.error());
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
                           " while running job " + what);
    }
  }
}

}  // namespace

Result<JobEndMessage> run_job(ClientConnection& connection, const JobSpec& spec,
                              const ProgressHandler& on_progress, Clock::time_point deadline,
                              const NoticeHandler& on_notice, const Reattach* reattach) {
  if (Status s = connection.send(RunRequest{spec}); !s) return s;
  return follow_job(connection, 0, spec.app, on_progress, deadline, on_notice, reattach);
}

Result<JobEndMessage> attach_job(ClientConnection& connection, std::uint64_t job,
                                 const std::string& what, const ProgressHandler& on_progress,
                                 Clock::time_point deadline, const NoticeHandler& on_notice,
                                 const Reattach* reattach) {
  if (Status s = connection.send(JobAttach{job, 0}); !s) return s;
  return follow_job(connection, job, what, on_progress, deadline, on_notice, reattach);
}

}  // namespace drift::ctl
