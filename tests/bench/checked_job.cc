// Running and checking a benchmark job (checked_job.h).
#include "tests/bench/checked_job.h"

#include "ctl/app_executable.h"

namespace drift::bench {

std::string describe_job(const JobSpec& spec) {
  std::string text = spec.app + " " + std::to_string(spec.tasks) + " tasks, " +
                     std::to_string(spec.steps) + " steps,";
  for (const auto& [key, value] : spec.params) text += " " + key + "=" + value;
  return text;
}

Result<JobResult> run_checked_job(ctl::ClientConnection& connection, JobSpec spec,
                                  const ctl::ProgressHandler& on_progress,
                                  std::chrono::milliseconds timeout,
                                  const ctl::NoticeHandler& on_notice) {
  JobSpec serial_spec = spec;
  serial_spec.runtime.clear();  // drift's own options, not the application's
  // The application's executable checks the job and computes its serial reference.
  auto serial = ctl::ask_app_about(spec.app, serial_spec, AppQueryKind::kSerial);
  if (!serial) return Status::error(describe_job(spec) + ": serial reference: " + serial.error());
  spec.params = serial->spec.params;
  spec.steps = serial->spec.steps;
  const std::string name = describe_job(spec);
  auto end = ctl::run_job(connection, spec, on_progress, ctl::Clock::now() + timeout, on_notice);
  if (!end) return Status::error(name + ": " + end.error());
  if (auto* failed = std::get_if<JobFailed>(&*end)) {
    return Status::error(name + ": the job failed: " + failed->reason);
  }
  JobResult result = std::get<JobResult>(std::move(*end));
  if (serial->checksum != result.checksum) {
    return Status::error(name + ": checksum " + result.checksum +
                         " differs from the serial "
                         "reference's " +
                         serial->checksum);
  }
  return result;
}

}  // namespace drift::bench
