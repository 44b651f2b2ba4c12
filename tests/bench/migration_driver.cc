// Driving migrations from a job's progress (migration_driver.h).
#include "tests/bench/migration_driver.h"

namespace drift::bench {

void MigrationDriver::on_progress(const JobProgress& progress) {
  if (job_ == 0) {
    job_ = progress.job;
    next_step_ = plan_.first_step;
  }
  if (done() || progress.job != job_ || progress.step < next_step_) return;
  move(progress.step);
}

void MigrationDriver::move(std::uint64_t step) {
  const std::uint32_t dest = node_ == 1 ? 2 : 1;
  const std::string what = "moving task " + std::to_string(plan_.index) + " from node " +
                           std::to_string(node_) + " to node " + std::to_string(dest);
  last_move_step_ = step;
  auto report = control_.migrate(TaskId{job_, plan_.index}, dest, plan_.timeout);
  if (!report) {
    error_ = what + ": " + report.error();
  } else if (!report->ok) {
    error_ = what + ": the daemon reports failure: " + report->reason;
  } else {
    reports_.push_back(*report);
    node_ = report->to;
    next_step_ = step + plan_.steps_between;
  }
}

}  // namespace drift::bench
