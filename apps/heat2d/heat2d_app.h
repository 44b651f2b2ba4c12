// heat2d as the runtime sees it (drift/application.h): 2D heat diffusion by Jacobi sweeps on a
// W x H grid, one task per tile, halo exchange every step, a {sum, max} residual reduction, and an
// exact checksum of the final grid that equals the serial reference's for any tiling and placement.
// Tiles split into spare tasks and merge while the job runs (layout.h); the checksum stays equal.
#pragma once

#include <memory>

#include <drift/application.h>

namespace drift::heat2d {

std::unique_ptr<Application> make_heat2d_app();

}  // namespace drift::heat2d
