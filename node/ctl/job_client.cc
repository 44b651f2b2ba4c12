#include "node/ctl/job_client.h"

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
                              const NoticeHandler& on_notice) {
  if (Status s = connection.send(RunRequest{spec}); !s) return s;
  for (;;) {
    auto msg = connection.receive(deadline);
    if (!msg) return Status::error("job " + spec.app + ": " + msg.error());
    if (auto* progress = std::get_if<JobProgress>(&*msg)) {
      if (on_progress) on_progress(*progress);
    } else if (auto* notice = std::get_if<JobNotice>(&*msg)) {
      if (on_notice) on_notice(*notice);
    } else if (auto* result = std::get_if<JobResult>(&*msg)) {
      return JobEndMessage(std::move(*result));
    } else if (auto* failed = std::get_if<JobFailed>(&*msg)) {
      return JobEndMessage(std::move(*failed));
    } else {
      return Status::error(connection.address() + " sent " + to_string(type_of(*msg)) +
                           " while running job " + spec.app);
    }
  }
}

}  // namespace drift::ctl
