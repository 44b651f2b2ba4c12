#include "node/machine/step_overhead.h"

#include <algorithm>
#include <cmath>

namespace drift {

std::optional<double> overhead_per_step(double node_cpu_s, double compute_cpu_s, double idle_cpu_s,
                                        double task_steps, std::size_t tasks) {
  if (tasks == 0 || !(node_cpu_s >= 0) || !(compute_cpu_s >= 0) || !std::isfinite(node_cpu_s) ||
      !std::isfinite(compute_cpu_s)) {
    return std::nullopt;
  }
  const double steps = task_steps / static_cast<double>(tasks);
  if (!(steps >= kMinStepsPerTask)) return std::nullopt;
  // Clocks read at different moments: a compute's CPU may show before its process's does.
  const double idle = std::isfinite(idle_cpu_s) ? std::max(0.0, idle_cpu_s) : 0.0;
  return std::max(0.0, node_cpu_s - compute_cpu_s - idle) / steps;
}

void StepOverhead::sample(double now_s, const Reading& reading, std::vector<TaskId> hosted) {
  std::sort(hosted.begin(), hosted.end());
  const bool same = start_ && start_->hosted == hosted && reading.steps >= start_->reading.steps;
  if (same && now_s - start_->at >= kIntervalSeconds) {
    const Reading& was = start_->reading;
    const double seconds = now_s - start_->at;
    if (hosted.empty()) {  // what the daemon spends anyway
      const double cpu = reading.node_cpu_s - was.node_cpu_s;
      if (cpu >= 0 && std::isfinite(cpu))
        idle_ = idle_ ? (*idle_ + cpu / seconds) / 2 : cpu / seconds;
      start_ = Start{now_s, reading, std::move(hosted)};
      return;
    }
    const auto judged = overhead_per_step(
        reading.node_cpu_s - was.node_cpu_s, reading.compute_cpu_s - was.compute_cpu_s,
        idle_cpu_per_second() * seconds, static_cast<double>(reading.steps - was.steps),
        hosted.size());
    if (!judged && reading.node_cpu_s >= was.node_cpu_s) return;  // too few steps yet: go on
    const bool warmed = start_->warmed;
    start_ = Start{now_s, reading, std::move(hosted), judged.has_value()};
    if (judged && warmed) overhead_ = overhead_ ? (*overhead_ + *judged) / 2 : *judged;
    return;
  } else if (same) {
    return;
  }
  start_ = Start{now_s, reading, std::move(hosted)};
}

}  // namespace drift
