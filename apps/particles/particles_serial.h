// particles' serial reference: the whole box as one range on one core, no runtime, through the
// same initial state and the same step (region_step.h) as the tasks, so its particles are
// bit-identical to theirs after every step.
#pragma once

#include <vector>

#include "apps/particles/particle.h"
#include "apps/particles/particles_params.h"

namespace drift::particles {

// The particles after params.steps steps (in no particular order).
std::vector<Particle> run_serial_particles(const Params& params);

}  // namespace drift::particles
