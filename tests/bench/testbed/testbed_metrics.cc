// The testbed benchmark's figures (testbed_metrics.h).
#include "tests/bench/testbed/testbed_metrics.h"

#include <algorithm>

namespace drift::bench {

double steady_step(const std::vector<double>& step_s) {
  if (step_s.empty()) return 0;
  const std::size_t n = std::max<std::size_t>(1, step_s.size() / 3);
  std::vector<double> tail(step_s.end() - static_cast<std::ptrdiff_t>(n), step_s.end());
  std::sort(tail.begin(), tail.end());
  return tail.size() % 2 ? tail[tail.size() / 2]
                         : (tail[tail.size() / 2 - 1] + tail[tail.size() / 2]) / 2;
}

std::size_t converged_step(const std::vector<double>& step_s, double steady, double tolerance) {
  std::size_t first = step_s.size();
  for (std::size_t i = step_s.size(); i-- > 0;) {
    if (step_s[i] > steady * (1 + tolerance)) break;
    first = i;
  }
  return first;
}

std::vector<double> step_ends(const std::vector<double>& step_s) {
  std::vector<double> ends;
  double t = 0;
  for (double s : step_s) ends.push_back(t += s);
  return ends;
}

double ideal_step(double work_units, double unit_rate, const std::vector<double>& speeds,
                  const std::vector<double>& external_loads) {
  double capacity = 0;
  for (std::size_t i = 0; i < speeds.size(); ++i) {
    const double ext = i < external_loads.size() ? external_loads[i] : 0;
    capacity += unit_rate * speeds[i] / (1 + ext);
  }
  return capacity > 0 ? work_units / capacity : 0;
}

std::uint64_t growth_after(const std::vector<std::pair<double, std::uint64_t>>& samples, double t) {
  if (samples.empty()) return 0;
  std::uint64_t at_t = samples.front().second;
  for (const auto& [time, count] : samples) {
    if (time > t) break;
    at_t = count;
  }
  return samples.back().second > at_t ? samples.back().second - at_t : 0;
}

double reached_at(const std::vector<std::pair<std::uint64_t, double>>& progress,
                  std::uint64_t steps_completed) {
  double at = 0;
  for (const auto& [steps, t] : progress) {
    if (steps >= steps_completed) break;
    at = t;
  }
  return at;
}

double whole_task_bound(std::uint32_t tasks, const std::vector<double>& capacities) {
  double total = 0;
  for (double c : capacities) total += std::max(0.0, c);
  if (tasks == 0 || !(total > 0)) return 1;
  std::vector<std::uint32_t> n(capacities.size(), 0);
  double worst = 0;
  for (std::uint32_t k = 0; k < tasks; ++k) {
    std::size_t best = capacities.size();
    double best_time = 0;
    for (std::size_t i = 0; i < capacities.size(); ++i) {
      if (!(capacities[i] > 0)) continue;
      const double time = (n[i] + 1) / capacities[i];
      if (best == capacities.size() || time < best_time) best = i, best_time = time;
    }
    ++n[best];
    worst = std::max(worst, best_time);
  }
  return (tasks / total) / worst;
}

}  // namespace drift::bench
