// The particles at step 0, as a closed-form function of (seed, id): the position is uniform in
// the box; each velocity component is approximately normal with standard deviation
// kThermalSpeed (a scaled sum of four uniforms: no libm functions, whose last bits differ
// between platforms). A task draws every particle's position and keeps those in its cells, so
// tasks and the serial reference start from exactly the same particles.
#pragma once

#include <cstdint>
#include <vector>

#include "apps/particles/cell_range.h"
#include "apps/particles/particle.h"
#include "apps/particles/particles_params.h"

namespace drift::particles {

inline constexpr double kThermalSpeed = 0.1;  // cells per step, per component

Particle initial_particle(const Params& params, std::uint64_t id);

// The initial particles in `range`, sorted by id.
std::vector<Particle> initial_particles(const Params& params, const CellRange& range);

}  // namespace drift::particles
