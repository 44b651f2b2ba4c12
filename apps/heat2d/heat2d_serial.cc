// heat2d's serial reference (heat2d_serial.h).
#include "apps/heat2d/heat2d_serial.h"

#include <utility>

#include "apps/heat2d/checksum.h"
#include "apps/heat2d/initial_condition.h"

namespace drift::heat2d {

std::vector<double> initial_grid(std::uint32_t width, std::uint32_t height) {
  std::vector<double> g(static_cast<std::size_t>(width) * height);
  for (std::uint32_t r = 0; r < height; ++r) {
    for (std::uint32_t c = 0; c < width; ++c) {
      g[static_cast<std::size_t>(r) * width + c] = initial_value(r, c, width, height);
    }
  }
  return g;
}

SerialRun run_serial_grid(const Params& p) {
  SerialRun run;
  run.grid = initial_grid(p.width, p.height);
  std::vector<double> next = run.grid;  // boundary cells stay equal in both buffers
  const Window interior{1, p.height - 1u, 1, p.width - 1u};
  for (std::uint64_t step = 0; step < p.steps; ++step) {
    run.last = jacobi_sweep(run.grid, next, p.width, interior);
    std::swap(run.grid, next);
  }
  return run;
}

std::uint64_t grid_checksum(const std::vector<double>& grid, std::uint32_t width,
                            std::uint32_t height) {
  return block_checksum(grid, width, Window{0, height, 0, width}, 0, 0, width);
}

}  // namespace drift::heat2d
