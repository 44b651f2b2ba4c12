// A tile in memory: a sweep with the true neighbours' edges in its halo ring gives the serial
// sweep's bits, edges and halos line up in global coordinates, cut-out and pasted cells and
// reshaping keep values where they belong, checksums of a partition add up, and a state whose
// cell count does not fit its rectangle is refused.
#include "apps/heat2d/tile_cells.h"

#include <drift/archives.h>
#include <gtest/gtest.h>

#include <vector>

#include "apps/heat2d/heat2d_serial.h"
#include "tests/apps/heat2d_rect.h"

namespace drift::heat2d {
namespace {

constexpr std::uint32_t kW = 12, kH = 10;

// The grid's cells of `part`, row-major.
std::vector<double> cells_of(const std::vector<double>& grid, const Rect& part) {
  std::vector<double> out;
  for (std::uint32_t r = part.rows.begin; r < part.rows.end; ++r) {
    for (std::uint32_t c = part.cols.begin; c < part.cols.end; ++c) out.push_back(grid[r * kW + c]);
  }
  return out;
}

TEST(TileCells, SweepWithTrueHalosMatchesTheSerialSweep) {
  const std::vector<double> start = initial_grid(kW, kH);
  const std::vector<double> after = run_serial_grid(Params{kW, kH, 1, 1}).grid;
  for (const Rect r :
       {rect(3, 7, 2, 9), rect(0, 4, 0, 12), rect(5, 10, 6, 12), rect(0, 10, 0, 1)}) {
    TileCells tile = TileCells::initial(r, kW, kH);
    EXPECT_EQ(tile.copy(r), cells_of(start, r));
    // Each side's halo: the row or column just outside, where it is inside the grid.
    if (r.rows.begin > 0) {
      tile.set_halo(
          kNorth, r.cols,
          cells_of(start, rect(r.rows.begin - 1, r.rows.begin, r.cols.begin, r.cols.end)));
    }
    if (r.rows.end < kH) {
      tile.set_halo(kSouth, r.cols,
                    cells_of(start, rect(r.rows.end, r.rows.end + 1, r.cols.begin, r.cols.end)));
    }
    if (r.cols.begin > 0) {
      tile.set_halo(
          kWest, r.rows,
          cells_of(start, rect(r.rows.begin, r.rows.end, r.cols.begin - 1, r.cols.begin)));
    }
    if (r.cols.end < kW) {
      tile.set_halo(kEast, r.rows,
                    cells_of(start, rect(r.rows.begin, r.rows.end, r.cols.end, r.cols.end + 1)));
    }
    tile.sweep(tile.interior(kW, kH));
    EXPECT_EQ(tile.copy(r), cells_of(after, r)) << to_string(r);
  }
}

TEST(TileCells, EdgesAreTheOwnedCellsAlongASide) {
  const std::vector<double> start = initial_grid(kW, kH);
  const TileCells tile = TileCells::initial(rect(2, 6, 3, 8), kW, kH);
  EXPECT_EQ(tile.edge(kNorth, Range{4, 7}), cells_of(start, rect(2, 3, 4, 7)));
  EXPECT_EQ(tile.edge(kSouth, Range{3, 8}), cells_of(start, rect(5, 6, 3, 8)));
  EXPECT_EQ(tile.edge(kWest, Range{3, 5}), cells_of(start, rect(3, 5, 3, 4)));
  EXPECT_EQ(tile.edge(kEast, Range{2, 6}), cells_of(start, rect(2, 6, 7, 8)));
}

TEST(TileCells, BoundaryOnlyTileHasAnEmptyInterior) {
  EXPECT_EQ(TileCells::initial(rect(0, 1, 0, 12), kW, kH).interior(kW, kH).cells(), 0u);
  EXPECT_EQ(TileCells::initial(rect(0, 10, 11, 12), kW, kH).interior(kW, kH).cells(), 0u);
  EXPECT_EQ(TileCells::initial(rect(0, 10, 10, 12), kW, kH).interior(kW, kH).cells(), 8u);
}

TEST(TileCells, ReshapingKeepsTheCellsOwnedBefore) {
  const std::vector<double> start = initial_grid(kW, kH);
  const TileCells whole = TileCells::initial(rect(0, 10, 0, 12), kW, kH);
  const TileCells top = whole.reshaped(rect(0, 4, 0, 12));
  EXPECT_EQ(top.rect(), rect(0, 4, 0, 12));
  EXPECT_EQ(top.copy(top.rect()), cells_of(start, top.rect()));
  TileCells grown = top.reshaped(rect(0, 7, 0, 12));
  EXPECT_EQ(grown.copy(rect(0, 4, 0, 12)), cells_of(start, rect(0, 4, 0, 12)));
  EXPECT_EQ(grown.copy(rect(4, 7, 0, 12)), std::vector<double>(36, 0.0));
  grown.paste(rect(4, 7, 0, 12), whole.copy(rect(4, 7, 0, 12)));
  EXPECT_EQ(grown.copy(grown.rect()), cells_of(start, grown.rect()));
  EXPECT_TRUE(whole.reshaped(std::nullopt).empty());
}

TEST(TileCells, ChecksumsOfAPartitionAddUp) {
  const std::vector<double> start = initial_grid(kW, kH);
  std::uint64_t sum = 0;
  for (const Rect r : {rect(0, 3, 0, 12), rect(3, 10, 0, 5), rect(3, 10, 5, 12)}) {
    sum += TileCells::initial(r, kW, kH).checksum(kW);
  }
  EXPECT_EQ(sum, grid_checksum(start, kW, kH));
  EXPECT_EQ(TileCells().checksum(kW), 0u);
}

TEST(TileCells, StateRoundTripsAndMustFitItsRectangle) {
  const TileCells tile = TileCells::initial(rect(2, 6, 3, 8), kW, kH);
  std::vector<std::uint8_t> bytes = encode_portable(tile);
  TileCells back;
  ASSERT_TRUE(decode_portable(bytes, back));
  EXPECT_EQ(encode_portable(back), bytes);
  bytes[1 + 4] = 7;  // rows.end 6 -> 7: the values no longer fit
  Status s = decode_portable(bytes, back);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("42 tile cells for rows [2, 7)"), std::string::npos) << s.message();
  bytes[1 + 4] = 1;  // rows.end before rows.begin
  EXPECT_FALSE(decode_portable(bytes, back));
  ASSERT_TRUE(decode_portable(encode_portable(TileCells()), back));
  EXPECT_TRUE(back.empty());
}

}  // namespace
}  // namespace drift::heat2d
