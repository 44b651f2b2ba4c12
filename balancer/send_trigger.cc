// Whether this node sends work this round (send_trigger.h).
#include "balancer/send_trigger.h"

#include <algorithm>
#include <cmath>

namespace drift::balance {

double balanced_utilization(const std::vector<NodeLoad>& group) {
  double load = 0, capacity = 0;
  for (const auto& n : group) {
    load += std::max(0.0, n.load);
    if (n.capacity > 0) capacity += n.capacity;
  }
  return capacity > 0 ? load / capacity : 0;
}

double own_efficiency(const NodeLoad& self, double balanced) {
  if (!(self.load > 0)) return 1;
  if (!(self.capacity > 0)) return 0;
  const double u = self.load / self.capacity;
  return std::isfinite(u) && u > balanced ? balanced / u : 1;
}

bool should_send(double own_eff, bool settled, const TriggerParams& params) {
  const double threshold = settled ? params.eff_min - params.hysteresis : params.eff_min;
  return own_eff < threshold;  // NaN: false
}

}  // namespace drift::balance
