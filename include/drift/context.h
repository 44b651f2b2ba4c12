// What a running task may do (docs/architecture.md §6). A Context is only valid inside the handler it was
// passed to; effects (sends, contributions, results) leave the node after the handler returns.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <drift/types.h>

namespace drift {

class Context {
 public:
  virtual ~Context() = default;

  virtual TaskId self() const = 0;
  virtual const JobSpec& job() const = 0;

  // Sends bytes to another task of the same job; delivered in channel order, exactly once.
  virtual void send(TaskId to, std::uint32_t tag, std::vector<std::uint8_t> payload) = 0;
  // Adds this task's values to the job's reduction for `step`; every task contributes once per
  // step; the combined values come back through Task::reduced on every task.
  virtual void contribute(std::uint64_t step, std::vector<double> values) = 0;
  // Runs fn, which does `work_units` of abstract work. Measured for capacity; in emulation mode
  // wall time is stretched to the emulated speed (the performance testbed).
  virtual void compute(double work_units, const std::function<void()>& fn) = 0;
  // This task's final result; the task is done after the current handler.
  virtual void finish(std::vector<std::uint8_t> result) = 0;
  // Ends the whole job as failed; `reason` reaches the user ("task 3: <reason>").
  virtual void fail(std::string reason) = 0;
};

}  // namespace drift
