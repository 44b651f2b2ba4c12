// plan_evacuation() (evacuation_plan.h).
#include "node/owner/evacuation_plan.h"

#include <algorithm>
#include <cmath>

namespace drift {

std::vector<std::pair<TaskId, std::uint32_t>> plan_evacuation(
    std::vector<LeavingTask> tasks, const std::vector<EvacuationTarget>& targets) {
  std::vector<EvacuationTarget> usable;
  for (const auto& t : targets) {
    if (std::isfinite(t.capacity) && t.capacity > 0 && std::isfinite(t.load)) {
      usable.push_back({t.node, std::max(0.0, t.load), t.capacity});
    }
  }
  if (usable.empty()) return {};
  double known = 0;
  int count = 0;
  for (const auto& t : tasks) {
    if (t.load > 0 && std::isfinite(t.load)) known += t.load, ++count;
  }
  const double fallback = count > 0 ? known / count : 1;
  for (auto& t : tasks) {
    if (!(t.load > 0) || !std::isfinite(t.load)) t.load = fallback;
  }
  std::stable_sort(tasks.begin(), tasks.end(), [](const LeavingTask& a, const LeavingTask& b) {
    return a.load > b.load || (a.load == b.load && a.task < b.task);
  });
  std::sort(usable.begin(), usable.end(),
            [](const auto& a, const auto& b) { return a.node < b.node; });
  std::vector<std::pair<TaskId, std::uint32_t>> plan;
  for (const auto& t : tasks) {
    EvacuationTarget* best = nullptr;
    for (auto& target : usable) {
      const double after = (target.load + t.load) / target.capacity;
      if (!best || after < (best->load + t.load) / best->capacity) best = &target;
    }
    best->load += t.load;
    plan.emplace_back(t.task, best->node);
  }
  return plan;
}

}  // namespace drift
