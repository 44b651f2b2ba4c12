// The Context a handler sees (node/tasks/context.h). It collects the handler's effects — messages,
// reduction contributions, the final result, compute time — and hands them to the network thread
// in one batch after the handler returns, so a handler never touches shared daemon state.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <drift/context.h>
#include "node/machine/emulation.h"
#include "node/tasks/task_slot.h"
#include "protocol/messages.h"

namespace drift {

// A task's state saved just before it took a checkpointed step's reduction (DESIGN.md §9).
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
  std::vector<TaskMessage> sends;
  std::vector<ReductionContribution> contributions;
  std::optional<TaskFinished> finished;
  std::optional<std::string> error;  // the handler threw
  std::optional<CheckpointState> checkpoint;
  double load = 0;
  TaskGrain grain;
  double busy_seconds = 0;
  double work_units = 0;
};

class TaskContext final : public Context {
 public:
  // `emulator` (may be null: a real machine) stretches ctx.compute to the emulated speed.
  explicit TaskContext(TaskSlot& slot, const Emulator* emulator = nullptr);

  TaskId self() const override { return slot_.id; }
  const JobSpec& job() const override { return slot_.job->spec; }
  void send(TaskId to, std::uint32_t tag, std::vector<std::uint8_t> payload) override;
  void contribute(std::uint64_t step, std::vector<double> values) override;
  void compute(double work_units, const std::function<void()>& fn) override;
  void finish(std::vector<std::uint8_t> result) override;
  void fail(std::string reason) override;

  HandlerEffects& effects() { return effects_; }

 private:
  TaskSlot& slot_;
  const Emulator* emulator_;
  HandlerEffects effects_;
};

}  // namespace drift
