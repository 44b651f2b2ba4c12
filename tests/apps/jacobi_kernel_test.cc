#include "apps/heat2d/jacobi_kernel.h"

#include <gtest/gtest.h>

#include <vector>

#include "apps/heat2d/initial_condition.h"

namespace drift::heat2d {
namespace {

TEST(JacobiKernel, CellIsTheAverageInAFixedOrder) {
  EXPECT_EQ(jacobi_cell(1, 2, 3, 4), 2.5);
  // 0.25 * ((1e16 + 1) + (-1e16 + 0)): the pairing is part of the definition.
  EXPECT_EQ(jacobi_cell(1e16, 1, -1e16, 0), 0.25 * ((1e16 + 1.0) + (-1e16 + 0.0)));
}

TEST(JacobiKernel, SweepUpdatesOnlyTheWindow) {
  // 4 x 5 array (stride 5), window rows 1..2, cols 1..3.
  std::vector<double> in(20);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<double>(i * i);
  std::vector<double> out(20, -1.0);
  const SweepStats s = jacobi_sweep(in, out, 5, Window{1, 3, 1, 4});
  double sum_sq = 0, max_abs = 0;
  for (std::size_t r = 0; r < 4; ++r) {
    for (std::size_t c = 0; c < 5; ++c) {
      const std::size_t i = r * 5 + c;
      if (r >= 1 && r < 3 && c >= 1 && c < 4) {
        EXPECT_EQ(out[i], jacobi_cell(in[i - 5], in[i + 5], in[i - 1], in[i + 1]));
        const double d = out[i] - in[i];
        sum_sq += d * d;
        max_abs = std::max(max_abs, std::abs(d));
      } else {
        EXPECT_EQ(out[i], -1.0) << r << "," << c;
      }
    }
  }
  EXPECT_EQ(s.sum_sq_change, sum_sq);
  EXPECT_EQ(s.max_abs_change, max_abs);
}

TEST(JacobiKernel, ConstantFieldIsAFixedPoint) {
  std::vector<double> in(36, 7.25), out(36, 0.0);
  const SweepStats s = jacobi_sweep(in, out, 6, Window{1, 5, 1, 5});
  EXPECT_EQ(s.sum_sq_change, 0.0);
  EXPECT_EQ(s.max_abs_change, 0.0);
  EXPECT_EQ(out[2 * 6 + 3], 7.25);
}

TEST(InitialCondition, BoundaryAndHotSquare) {
  const std::uint32_t w = 25, h = 17;
  EXPECT_EQ(initial_value(0, 0, w, h), 100.0);
  EXPECT_EQ(initial_value(0, 24, w, h), 100.0);
  EXPECT_EQ(initial_value(16, 0, w, h), 0.0);              // bottom ramp starts at 0
  EXPECT_EQ(initial_value(16, 24, w, h), 50.0);            // and ends at 50
  EXPECT_EQ(initial_value(8, 0, w, h), 50.0);              // left ramp halfway down
  EXPECT_EQ(initial_value(8, 24, w, h), 0.0);              // right edge
  EXPECT_EQ(initial_value(h / 3, 2 * w / 3, w, h), 80.0);  // hot square centre
  EXPECT_EQ(initial_value(1, 1, w, h), 0.0);
  EXPECT_TRUE(is_boundary(0, 5, w, h));
  EXPECT_TRUE(is_boundary(16, 5, w, h));
  EXPECT_TRUE(is_boundary(5, 24, w, h));
  EXPECT_FALSE(is_boundary(5, 5, w, h));
}

}  // namespace
}  // namespace drift::heat2d
