// How a particle moves in one step (dt = 1): the drift acceleration is added to vx, then x
// advances by vx, but by less than one cell (kMaxShift) whatever the speed, so a particle
// crosses at most into the neighbouring cell — hence at most into the neighbouring task, since
// every task owns at least one cell. Walls at x = 0 and x = cells reflect (x mirrored, vx
// negated). Only + - * on doubles, so every platform moves a particle to the same bits.
#pragma once

#include <cstdint>

#include "apps/particles/particle.h"

namespace drift::particles {

// The largest distance a particle moves in one step, in cells (exact in binary).
inline constexpr double kMaxShift = 0.875;

struct Motion {
  double box_length = 0;    // cells
  double acceleration = 0;  // cells per step^2, towards the right wall
};

// p.x in [0, box_length] before and after.
void move(Particle& p, const Motion& motion);

}  // namespace drift::particles
