// The one Jacobi sweep both the serial reference and the tasks run. Every updated cell is
//   new = 0.25 * ((north + south) + (west + east))
// evaluated in exactly this order from the same four inputs, so a cell's new value has the same
// bits whichever tile (or the serial grid) computes it. Nothing here may be built with
// -ffast-math or FP contraction (apps/CMakeLists.txt sets -ffp-contract=off).
#pragma once

#include <cstddef>
#include <span>

namespace drift::heat2d {

inline double jacobi_cell(double north, double south, double west, double east) {
  return 0.25 * ((north + south) + (west + east));
}

// Cells [row_begin, row_end) x [col_begin, col_end) of a row-major array with `stride` doubles
// per row. The window must not touch the array's outer ring (its cells need four neighbours).
struct Window {
  std::size_t row_begin = 0;
  std::size_t row_end = 0;
  std::size_t col_begin = 0;
  std::size_t col_end = 0;
  std::size_t cells() const { return (row_end - row_begin) * (col_end - col_begin); }
};

// Change of one sweep over its window: sum of squared and largest absolute cell difference.
// (The sum depends on the summation order, so it is a progress figure, not part of the result.)
struct SweepStats {
  double sum_sq_change = 0;
  double max_abs_change = 0;
};

// Writes the Jacobi update of every window cell of `in` into `out` (same shape); cells of `out`
// outside the window are left untouched.
SweepStats jacobi_sweep(std::span<const double> in, std::span<double> out, std::size_t stride,
                        const Window& window);

}  // namespace drift::heat2d
