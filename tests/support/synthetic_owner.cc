// The synthetic owner's schedule (synthetic_owner.h).
#include "tests/support/synthetic_owner.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace drift::test {

double ramped(double level, double ramp_s, double t_s) {
  if (t_s < 0) return 0;
  if (ramp_s <= 0) return level;
  return level * std::min(1.0, t_s / ramp_s);
}

double duty(double level, std::uint32_t i) {
  return std::clamp(level - static_cast<double>(i), 0.0, 1.0);
}

std::uint32_t threads_for(const OwnerSchedule& s) {
  return std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::ceil(s.cpu)));
}

bool touch_due(const OwnerSchedule& s, double t_s, double last_s) {
  if (last_s < 0) return true;
  return s.touch_every_s > 0 && t_s - last_s >= s.touch_every_s;
}

Status validate(const OwnerSchedule& s) {
  auto bad = [](const char* option, double v, const char* want) {
    std::ostringstream out;
    out << option << " '" << v << "' " << want;
    return Status::error(out.str());
  };
  if (!(s.cpu >= 0 && s.cpu <= 256)) return bad("--cpu", s.cpu, "must be 0..256 cores");
  if (!(s.ramp_s >= 0)) return bad("--ramp", s.ramp_s, "must be >= 0 seconds");
  if (!(s.duration_s > 0)) return bad("--duration", s.duration_s, "must be > 0 seconds");
  if (!(s.touch_every_s >= 0)) return bad("--touch-every", s.touch_every_s, "must be >= 0");
  return Status::ok();
}

}  // namespace drift::test
