// How particles splits the box between tasks: contiguous, near-equal, covering every cell once,
// owner_of the inverse of cell_range, and cell_of clamped to the box.
#include <gtest/gtest.h>

#include <algorithm>

#include "apps/particles/cell_range.h"

namespace drift::particles {
namespace {

TEST(ParticlesCellRange, SplitsEvenlyAndContiguously) {
  for (std::uint64_t cells : {1u, 7u, 64u, 100u, 4096u}) {
    for (std::uint32_t tasks = 1; tasks <= std::min<std::uint64_t>(cells, 20); ++tasks) {
      std::uint64_t next = 0;
      for (std::uint32_t i = 0; i < tasks; ++i) {
        const CellRange r = cell_range(cells, tasks, i);
        EXPECT_EQ(r.begin, next);
        EXPECT_GE(r.size(), cells / tasks);
        EXPECT_LE(r.size(), cells / tasks + 1);
        for (std::uint64_t c = r.begin; c < r.end; ++c) EXPECT_EQ(owner_of(c, cells, tasks), i);
        next = r.end;
      }
      EXPECT_EQ(next, cells) << cells << " cells, " << tasks << " tasks";
    }
  }
}

TEST(ParticlesCellRange, CellOfIsClampedToTheBox) {
  EXPECT_EQ(cell_of(0.0, 8), 0u);
  EXPECT_EQ(cell_of(-0.0, 8), 0u);
  EXPECT_EQ(cell_of(0.999, 8), 0u);
  EXPECT_EQ(cell_of(1.0, 8), 1u);
  EXPECT_EQ(cell_of(7.5, 8), 7u);
  EXPECT_EQ(cell_of(8.0, 8), 7u);  // the right wall belongs to the last cell
  EXPECT_EQ(cell_of(1e300, 8), 7u);
}

}  // namespace
}  // namespace drift::particles
