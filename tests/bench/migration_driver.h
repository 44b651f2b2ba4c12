// Drives the migrations of a running job from its JobProgress stream (checked_job.h): the first
// progress gives the job id; from then on, whenever the job has advanced `steps_between` steps
// since the last move, task `index` is moved to the other of nodes 1 and 2 (starting from
// `start_node`), until `migrations` moves are done or one fails. Each successful move's
// MigrationReport is kept; the first failure ends the driving and is kept as the error.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/messages.h"
#include "tests/bench/control_client.h"

namespace drift::bench {

struct MigrationPlan {
  std::uint32_t index = 0;       // task index within the job
  std::uint32_t start_node = 1;  // where placement put it
  int migrations = 1;
  std::uint64_t first_step = 1;  // no move before the job has completed this many steps
  std::uint64_t steps_between = 3;
  std::chrono::milliseconds timeout{60000};
};

class MigrationDriver {
 public:
  MigrationDriver(ControlClient& control, MigrationPlan plan)
      : control_(control), plan_(plan), node_(plan.start_node) {}

  void on_progress(const JobProgress& progress);

  std::uint64_t job() const { return job_; }
  bool done() const { return error_ || static_cast<int>(reports_.size()) >= plan_.migrations; }
  const std::vector<MigrationReport>& reports() const { return reports_; }
  // The job step (completed steps) seen when the last move was asked for.
  std::uint64_t last_move_step() const { return last_move_step_; }
  const std::optional<std::string>& error() const { return error_; }

 private:
  void move(std::uint64_t step);

  ControlClient& control_;
  MigrationPlan plan_;
  std::uint64_t job_ = 0;
  std::uint32_t node_;
  std::uint64_t next_step_ = 0;
  std::uint64_t last_move_step_ = 0;
  std::vector<MigrationReport> reports_;
  std::optional<std::string> error_;
};

}  // namespace drift::bench
