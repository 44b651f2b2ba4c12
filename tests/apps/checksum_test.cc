#include "apps/heat2d/checksum.h"

#include <gtest/gtest.h>

#include <bit>
#include <vector>

#include "apps/heat2d/heat2d_serial.h"

namespace drift::heat2d {
namespace {

TEST(Checksum, Mix64IsSplitmix64Finalizer) {
  EXPECT_EQ(mix64(0), 0u);
  // splitmix64's first output for seed 0 is mix64(0x9e3779b97f4a7c15).
  EXPECT_EQ(mix64(0x9e3779b97f4a7c15ULL), 0xe220a8397b1dcdafULL);
}

TEST(Checksum, FormatsSixteenHexDigits) {
  EXPECT_EQ(format_checksum(0), "0000000000000000");
  EXPECT_EQ(format_checksum(0x0123456789abcdefULL), "0123456789abcdef");
  EXPECT_EQ(format_checksum(~0ULL), "ffffffffffffffff");
}

TEST(Checksum, ChangesWhenAnyBitOfOneCellChanges) {
  std::vector<double> grid = initial_grid(9, 7);
  const std::uint64_t base = grid_checksum(grid, 9, 7);
  for (std::size_t cell : {0u, 10u, 31u, 62u}) {
    for (int bit : {0, 1, 31, 52, 63}) {
      std::vector<double> g = grid;
      g[cell] = std::bit_cast<double>(std::bit_cast<std::uint64_t>(g[cell]) ^ (1ULL << bit));
      EXPECT_NE(grid_checksum(g, 9, 7), base) << "cell " << cell << " bit " << bit;
    }
  }
  std::vector<double> swapped = grid;  // same values, other places
  std::swap(swapped[1], swapped[27]);
  ASSERT_NE(grid[1], grid[27]);
  EXPECT_NE(grid_checksum(swapped, 9, 7), base);
}

TEST(Checksum, PartialSumsOverAnyPartitionAddUp) {
  std::vector<double> grid = initial_grid(11, 6);
  const std::uint64_t whole = grid_checksum(grid, 11, 6);
  // Two blocks of the same array: rows 0..2 and 3..5.
  const std::uint64_t top = block_checksum(grid, 11, Window{0, 3, 0, 11}, 0, 0, 11);
  const std::uint64_t bottom = block_checksum(grid, 11, Window{3, 6, 0, 11}, 0, 0, 11);
  EXPECT_EQ(top + bottom, whole);
  // A block stored at an offset: local (r, c) is grid (r + 2, c + 4).
  std::vector<double> local(3 * 5);
  for (std::size_t r = 0; r < 3; ++r) {
    for (std::size_t c = 0; c < 5; ++c) local[r * 5 + c] = grid[(r + 2) * 11 + (c + 4)];
  }
  EXPECT_EQ(block_checksum(local, 5, Window{0, 3, 0, 5}, 2, 4, 11),
            block_checksum(grid, 11, Window{2, 5, 4, 9}, 0, 0, 11));
}

}  // namespace
}  // namespace drift::heat2d
