// The Context a handler sees (drift/context.h). It collects the handler's effects — messages,
// reduction contributions, the final result, compute time — which the worker's I/O thread hands
// on after the handler returns, so a handler never touches shared state.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <drift/context.h>
#include "node/machine/emulation.h"
#include "protocol/messages.h"
#include "protocol/worker_messages.h"
#include "sdk/task_slot.h"

namespace drift {

// A task's state saved just before it took a checkpointed step's reduction.
struct SavedCheckpoint {
  std::uint64_t step = 0;
  std::shared_ptr<const std::vector<std::uint8_t>> state;
};

struct HandlerOutcome {
  TaskId task;
  std::vector<TaskMessage> sends;
  WorkerEffects report;  // everything but the sends and the checkpoint's bytes
  std::optional<SavedCheckpoint> checkpoint;
};

class TaskContext final : public Context {
 public:
  // `emulator` (may be null: a real machine) stretches ctx.compute to the emulated speed;
  // `max_payload` bounds what one send may carry (the daemon's frame limit).
  TaskContext(TaskSlot& slot, const Emulator* emulator, std::uint64_t max_payload);

  TaskId self() const override { return slot_.id; }
  const JobSpec& job() const override { return slot_.job.spec; }
  void send(TaskId to, std::uint32_t tag, std::vector<std::uint8_t> payload) override;
  void contribute(std::uint64_t step, std::vector<double> values) override;
  void compute(double work_units, const std::function<void()>& fn) override;
  void finish(std::vector<std::uint8_t> result) override;
  void fail(std::string reason) override;

  HandlerOutcome& effects() { return effects_; }

 private:
  TaskSlot& slot_;
  const Emulator* emulator_;
  std::uint64_t max_payload_;
  HandlerOutcome effects_;
};

}  // namespace drift
