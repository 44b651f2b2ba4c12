// particles' serial reference (particles_serial.h).
#include "apps/particles/particles_serial.h"

#include "apps/particles/initial_state.h"
#include "apps/particles/region_step.h"

namespace drift::particles {

std::vector<Particle> run_serial_particles(const Params& params) {
  const CellRange box{0, params.cells};
  const Physics physics = physics_of(params);
  std::vector<Particle> particles = initial_particles(params, box);
  for (std::uint64_t step = 0; step < params.steps; ++step) {
    advance_region(particles, box, physics, step);  // walls reflect: nothing leaves the box
  }
  return particles;
}

}  // namespace drift::particles
