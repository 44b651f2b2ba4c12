// The Jacobi sweep (jacobi_kernel.h).
#include "apps/heat2d/jacobi_kernel.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace drift::heat2d {

SweepStats jacobi_sweep(std::span<const double> in, std::span<double> out, std::size_t stride,
                        const Window& w) {
  assert(in.size() == out.size() && w.row_begin >= 1 && w.col_begin >= 1 && w.col_end < stride &&
         (w.row_end + 1) * stride <= in.size());
  SweepStats stats;
  for (std::size_t r = w.row_begin; r < w.row_end; ++r) {
    const double* up = &in[(r - 1) * stride];
    const double* mid = &in[r * stride];
    const double* down = &in[(r + 1) * stride];
    double* dst = &out[r * stride];
    for (std::size_t c = w.col_begin; c < w.col_end; ++c) {
      const double v = jacobi_cell(up[c], down[c], mid[c - 1], mid[c + 1]);
      const double d = v - mid[c];
      dst[c] = v;
      stats.sum_sq_change += d * d;
      stats.max_abs_change = std::max(stats.max_abs_change, std::fabs(d));
    }
  }
  return stats;
}

}  // namespace drift::heat2d
