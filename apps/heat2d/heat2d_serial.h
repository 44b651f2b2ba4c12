// The serial reference: the whole heat2d grid on one core, no runtime. Uses the same initial
// condition and the same Jacobi sweep as the tasks, so its grid is bit-identical to theirs.
#pragma once

#include <cstdint>
#include <vector>

#include "apps/heat2d/heat2d_params.h"
#include "apps/heat2d/jacobi_kernel.h"

namespace drift::heat2d {

// Row-major width x height grid at step 0.
std::vector<double> initial_grid(std::uint32_t width, std::uint32_t height);

struct SerialRun {
  std::vector<double> grid;  // row-major, after params.steps sweeps
  SweepStats last;           // change of the last sweep
};

SerialRun run_serial_grid(const Params& params);

// Checksum (checksum.h) of a whole row-major width x height grid.
std::uint64_t grid_checksum(const std::vector<double>& grid, std::uint32_t width,
                            std::uint32_t height);

}  // namespace drift::heat2d
