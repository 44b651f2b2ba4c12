// Whether this node sends work this round (send_trigger.h).
#include "balancer/send_trigger.h"

#include <algorithm>
#include <cmath>

namespace drift::balance {

double balanced_utilization(const std::vector<NodeLoad>& group) {
  double load = 0;
  for (const auto& n : group) load += std::max(0.0, n.load);
  // The level U at which Σ C (U - floor) over the members below it holds all the load: members
  // whose floor is at or above the level take none of it (water filling, from all members down).
  std::vector<bool> in(group.size());
  for (std::size_t i = 0; i < group.size(); ++i) in[i] = group[i].capacity > 0;
  double level = 0;
  for (bool changed = true; changed;) {
    double capacity = 0, floors = 0;
    for (std::size_t i = 0; i < group.size(); ++i) {
      if (!in[i]) continue;
      capacity += group[i].capacity;
      floors += group[i].capacity * group[i].floor;
    }
    if (!(capacity > 0)) return 0;
    level = (load + floors) / capacity;
    changed = false;
    for (std::size_t i = 0; i < group.size(); ++i) {
      if (in[i] && group[i].floor > 0 && group[i].floor >= level) in[i] = false, changed = true;
    }
  }
  return level;
}

double balanced_load(const NodeLoad& n, double level) {
  if (!(n.capacity > 0)) return 0;
  return n.capacity * std::max(0.0, level - n.floor);
}

double own_efficiency(const NodeLoad& self, double balanced) {
  if (!(self.load > 0)) return 1;
  if (!(self.capacity > 0)) return 0;
  const double u = utilization(self);
  return std::isfinite(u) && u > balanced ? balanced / u : 1;
}

bool should_send(double own_eff, bool settled, const TriggerParams& params) {
  const double threshold = settled ? params.eff_min - params.hysteresis : params.eff_min;
  return own_eff < threshold;  // NaN: false
}

}  // namespace drift::balance
