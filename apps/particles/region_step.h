// One step of the simulation over a range of cells, shared by the tasks and the serial reference
// (which passes the whole box): sort the range's particles by (cell, id), collide within each
// cell (collisions.h), then move every particle (motion.h) and take out those that left the
// range. Each particle sees exactly the same operations, in the same order, whatever range it is
// in, so the state after any number of steps is the same bits for any split of the box.
#pragma once

#include <cstdint>
#include <vector>

#include "apps/particles/cell_range.h"
#include "apps/particles/motion.h"
#include "apps/particles/particle.h"
#include "apps/particles/particles_params.h"

namespace drift::particles {

struct Physics {
  std::uint64_t cells = 0;
  std::uint64_t seed = 0;
  Motion motion;
};

Physics physics_of(const Params& params);

// The particles that left the range in a step, towards each side.
struct Leavers {
  std::vector<Particle> left;
  std::vector<Particle> right;
};

// Does step `step` on `particles`, which must all lie in `range`; afterwards `particles` holds
// those still in `range` and the rest are returned (into the neighbouring cells only).
Leavers advance_region(std::vector<Particle>& particles, const CellRange& range,
                       const Physics& physics, std::uint64_t step);

}  // namespace drift::particles
