// What one handler of a task hosted here did, as its worker reported it (WorkerEffects), in the
// daemon's terms: the reduction contributions and the result go to the job's root, a checkpoint
// to the recovery agent, the load and grain to the balancer. The messages it sent were routed
// as they arrived, before this.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "node/tasks/job_info.h"
#include "protocol/messages.h"

namespace drift {

// A task's state saved just before it took a checkpointed step's reduction.
struct CheckpointState {
  std::uint64_t step = 0;
  std::shared_ptr<const std::vector<std::uint8_t>> state;
};

// What the balancer reads of a hosted task after its last handler (Task::can_split,
// Task::merge_partner).
struct TaskGrain {
  bool splittable = false;
  std::optional<std::uint32_t> merge_partner;
};

struct HandlerEffects {
  TaskId task;
  std::shared_ptr<const JobInfo> job;
  std::vector<TaskId> partners;  // tasks it sent to inside its worker
  std::vector<ReductionContribution> contributions;
  std::optional<TaskFinished> finished;
  std::optional<std::string> error;  // the handler threw or called ctx.fail
  std::optional<CheckpointState> checkpoint;
  double load = 0;
  TaskGrain grain;
  double busy_seconds = 0;
  double work_units = 0;
  double cpu_seconds = 0;  // of busy_seconds, the CPU time the computes got (WorkerEffects)
};

}  // namespace drift
