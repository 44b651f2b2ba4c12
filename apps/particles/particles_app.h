// particles as the runtime sees it (drift/application.h): a DSMC-like particle simulation in a
// 1-D box of cells with reflecting walls, one task per contiguous range of cells, particles
// handed to the neighbouring task as they cross, collisions within cells, and a slow drift
// towards the right wall so that the load (particles per task) shifts during the run. The
// checksum covers every particle's bits and equals the serial reference's for any task count,
// placement and migration history. Details: particles, kinetic_energy (exact),
// min_task_particles and max_task_particles at the end.
#pragma once

#include <memory>

#include <drift/application.h>

namespace drift::particles {

std::unique_ptr<Application> make_particles_app();

}  // namespace drift::particles
