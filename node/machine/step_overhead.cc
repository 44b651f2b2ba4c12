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

namespace {
double averaged(std::optional<double> last, double newest) {
  return last ? (*last + newest) / 2 : newest;
}
}  // namespace

void StepOverhead::sample(double now_s, std::vector<TaskId> hosted,
                          const std::function<Reading()>& read) {
  std::sort(hosted.begin(), hosted.end());
  if (!start_ || start_->hosted != hosted) {
    start_ = Start{now_s, read(), std::move(hosted)};
    return;
  }
  const double seconds = now_s - start_->at;
  if (seconds < kIntervalSeconds) return;
  const Reading now = read();
  const Reading& was = start_->reading;
  if (now.moving || was.moving || now.state_bytes != was.state_bytes ||
      now.grain_changes != was.grain_changes) {
    // Moving, checkpointing or regrouping state is no step's CPU (nor what the idle daemon
    // spends).
    start_ = Start{now_s, now, std::move(hosted), start_->warmed};
    return;
  }
  const double cpu = now.node_cpu_s - was.node_cpu_s;
  const bool forward = cpu >= 0 && std::isfinite(cpu) && now.steps >= was.steps;
  if (hosted.empty()) {  // what the daemon spends anyway
    if (forward) idle_ = averaged(idle_, cpu / seconds);
    start_ = Start{now_s, now, std::move(hosted)};
    return;
  }
  const auto judged =
      forward ? overhead_per_step(cpu, now.compute_cpu_s - was.compute_cpu_s,
                                  idle_cpu_per_second() * seconds,
                                  static_cast<double>(now.steps - was.steps), hosted.size())
              : std::nullopt;
  if (!judged && forward) return;  // too few steps yet: the interval goes on
  const bool warmed = start_->warmed;
  start_ = Start{now_s, now, std::move(hosted), judged.has_value()};
  if (judged && warmed) overhead_ = averaged(overhead_, *judged);
}

}  // namespace drift
