// A particle's move (motion.h).
#include "apps/particles/motion.h"

#include <algorithm>

namespace drift::particles {

void move(Particle& p, const Motion& m) {
  p.vx = p.vx + m.acceleration;
  double x = p.x + std::clamp(p.vx, -kMaxShift, kMaxShift);
  if (x < 0) {
    x = -x;
    p.vx = -p.vx;
  } else if (x > m.box_length) {
    x = (m.box_length + m.box_length) - x;
    p.vx = -p.vx;
  }
  p.x = x;
}

}  // namespace drift::particles
