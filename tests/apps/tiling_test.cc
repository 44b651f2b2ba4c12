#include "apps/heat2d/tiling.h"

#include <gtest/gtest.h>

#include <vector>

namespace drift::heat2d {
namespace {

struct TilingCase {
  std::uint32_t width, height, tasks;
};

TEST(Tiling, CoversTheGridExactlyOnce) {
  for (const TilingCase c : {TilingCase{3, 3, 1}, TilingCase{10, 10, 4}, TilingCase{31, 17, 7},
                             TilingCase{17, 31, 6}, TilingCase{13, 101, 25}, TilingCase{64, 48, 16},
                             TilingCase{100, 5, 9}, TilingCase{7, 7, 25}}) {
    auto t = make_tiling(c.width, c.height, c.tasks);
    ASSERT_TRUE(t) << c.width << "x" << c.height << " / " << c.tasks;
    ASSERT_EQ(t->px * t->py, c.tasks);
    std::vector<int> owner_count(static_cast<std::size_t>(c.width) * c.height, 0);
    for (std::uint32_t i = 0; i < c.tasks; ++i) {
      const Tile tile = tile_of(*t, i);
      // every tile has at least one interior cell each way
      EXPECT_GE(std::min(tile.rows.end, c.height - 1), std::max(tile.rows.begin, 1u) + 1);
      EXPECT_GE(std::min(tile.cols.end, c.width - 1), std::max(tile.cols.begin, 1u) + 1);
      for (std::uint32_t r = tile.rows.begin; r < tile.rows.end; ++r) {
        for (std::uint32_t col = tile.cols.begin; col < tile.cols.end; ++col) {
          ++owner_count[static_cast<std::size_t>(r) * c.width + col];
        }
      }
    }
    for (int n : owner_count) ASSERT_EQ(n, 1);
  }
}

TEST(Tiling, NeighboursAreSymmetricAndAdjacent) {
  for (const TilingCase c : {TilingCase{10, 10, 4}, TilingCase{31, 17, 7}, TilingCase{64, 48, 16},
                             TilingCase{40, 40, 25}}) {
    auto t = make_tiling(c.width, c.height, c.tasks);
    ASSERT_TRUE(t);
    for (std::uint32_t i = 0; i < c.tasks; ++i) {
      const Tile tile = tile_of(*t, i);
      for (int s = 0; s < kSides; ++s) {
        const std::uint32_t n = tile.neighbour[s];
        if (n == kNoNeighbour) continue;
        const Tile other = tile_of(*t, n);
        EXPECT_EQ(other.neighbour[opposite(static_cast<Side>(s))], i);
        switch (s) {
          case kNorth:
            EXPECT_EQ(other.rows.end, tile.rows.begin);
            break;
          case kSouth:
            EXPECT_EQ(other.rows.begin, tile.rows.end);
            break;
          case kWest:
            EXPECT_EQ(other.cols.end, tile.cols.begin);
            break;
          case kEast:
            EXPECT_EQ(other.cols.begin, tile.cols.end);
            break;
        }
        const bool vertical = s == kNorth || s == kSouth;
        EXPECT_EQ(vertical ? other.cols : other.rows, vertical ? tile.cols : tile.rows);
      }
    }
  }
}

TEST(Tiling, EdgeTilesHaveNoOuterNeighbour) {
  auto t = make_tiling(20, 20, 4);
  ASSERT_TRUE(t);
  const Tile tl = tile_of(*t, 0);
  EXPECT_EQ(tl.neighbour[kNorth], kNoNeighbour);
  EXPECT_EQ(tl.neighbour[kWest], kNoNeighbour);
  EXPECT_EQ(tl.neighbour[kEast], 1u);
  EXPECT_EQ(tl.neighbour[kSouth], 2u);
}

TEST(Tiling, ChoosesTilesClosestToSquare) {
  auto sq = make_tiling(258, 258, 16);
  EXPECT_EQ(sq->px, 4u);
  EXPECT_EQ(sq->py, 4u);
  auto wide = make_tiling(402, 102, 4);  // interior 400 x 100: four 100 x 100 tiles
  EXPECT_EQ(wide->px, 4u);
  EXPECT_EQ(wide->py, 1u);
  auto tall = make_tiling(202, 402, 8);  // interior 200 x 400: 2 x 4 tiles of 100 x 100
  EXPECT_EQ(tall->px, 2u);
  EXPECT_EQ(tall->py, 4u);
  auto prime = make_tiling(66, 66, 7);  // a tie between 7x1 and 1x7: horizontal strips
  EXPECT_EQ(prime->px, 1u);
  EXPECT_EQ(prime->py, 7u);
}

TEST(Tiling, SpreadsRemainderEvenly) {
  auto t = make_tiling(12, 3, 4);  // 10 interior columns into 4: sizes 2 or 3
  ASSERT_TRUE(t);
  EXPECT_EQ(t->px, 4u);
  EXPECT_EQ(t->col_cuts, (std::vector<std::uint32_t>{0, 3, 6, 8, 12}));
  for (std::uint32_t k = 0; k < 4; ++k) {
    const std::uint32_t interior = std::min(t->col_cuts[k + 1], 11u) - std::max(t->col_cuts[k], 1u);
    EXPECT_TRUE(interior == 2 || interior == 3);
  }
}

TEST(Tiling, RefusesWhatDoesNotFit) {
  EXPECT_FALSE(make_tiling(5, 5, 7));   // 3x3 interior, 7 is prime
  EXPECT_FALSE(make_tiling(5, 5, 16));  // 4x4 tiles > 3x3 cells
  EXPECT_TRUE(make_tiling(5, 5, 9));
  EXPECT_FALSE(make_tiling(10, 10, 0));
  EXPECT_FALSE(make_tiling(2, 10, 1));
}

}  // namespace
}  // namespace drift::heat2d
