// An SPMD application as the runtime sees it: validates a job spec, makes its tasks, says how
// step reductions combine, turns the tasks' final results into a checksum, and computes the same
// job serially as the reference. An application's executable hands one to drift::app_main
// (drift/app_main.h).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <drift/task.h>
#include <drift/status.h>
#include <drift/types.h>

namespace drift {

enum class ReduceOp : std::uint8_t { kSum, kMax, kMin };

struct JobOutcome {
  std::string checksum;                        // exact, hex; equal across placements
  std::map<std::string, std::string> details;  // human-readable extras (e.g. final residual)
};

class Application {
 public:
  virtual ~Application() = default;

  virtual std::string name() const = 0;
  // One line per option for driftctl's help, e.g. "--size WxH  grid size (default 256x256)".
  virtual std::vector<std::string> option_help() const = 0;
  // Fills defaults into spec.params and checks every value; the error names the key and value.
  virtual Status validate(JobSpec& spec) const = 0;
  virtual std::unique_ptr<Task> create_task(const JobSpec& spec, std::uint32_t index) const = 0;
  // One op per reduced value, in order. Root combines contributions in task-index order, so the
  // combined values are the same for any placement.
  virtual std::vector<ReduceOp> reduction_ops() const = 0;
  // How many of the spec's tasks start with no work: the last indices, spare until a split
  // gives one half of a task's work (Task::regrain). Every task still contributes to every
  // reduction (a spare one the ops' identity) and finishes.
  virtual std::uint32_t spare_tasks(const JobSpec& /*spec*/) const { return 0; }
  // The most memory one task needs, in bytes (its state and working arrays); 0: not stated. A
  // job waits in its root's queue until the available nodes have this much free for each of its
  // tasks, and the worker's memory limit (worker.memory_limit) still bounds what it really takes.
  virtual std::uint64_t memory_per_task(const JobSpec& /*spec*/) const { return 0; }
  // results[i] is what task i passed to ctx.finish().
  virtual Result<JobOutcome> combine(const JobSpec& spec,
                                     const std::vector<std::vector<std::uint8_t>>& results) const = 0;
  // The serial reference: the same job on one core, no runtime.
  virtual Result<JobOutcome> run_serial(const JobSpec& spec) const = 0;
};

}  // namespace drift
