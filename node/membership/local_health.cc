// Local health score and the suspicion timeout curve (local_health.h).
#include "node/membership/local_health.h"

#include <algorithm>
#include <cmath>

namespace drift {

void LocalHealth::round(std::chrono::milliseconds lateness) {
  if (2 * lateness > params_.interval) return raise();
  if (score_ > 0 && ++calm_ >= params_.calm_rounds) {
    --score_;
    calm_ = 0;
  }
}

void LocalHealth::raise() {
  score_ = std::min(score_ + 1, params_.max_score);
  calm_ = 0;
}

std::chrono::milliseconds suspicion_timeout(std::chrono::milliseconds min,
                                            std::chrono::milliseconds max,
                                            std::size_t confirmations, std::size_t expected) {
  if (expected == 0 || max <= min) return min;
  const double c = static_cast<double>(std::min(confirmations, expected));
  const double fraction = std::log(c + 1) / std::log(static_cast<double>(expected) + 1);
  const auto span = static_cast<double>((max - min).count());
  return std::max(min, max - std::chrono::milliseconds(std::llround(span * fraction)));
}

}  // namespace drift
