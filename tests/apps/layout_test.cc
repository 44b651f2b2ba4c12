// heat2d's layout: the initial tiling with spare tasks, the split and merge rules, changes that
// must be ignored (leaving the layout as it was), the partition and adjacency invariants after
// random sequences of changes, and the loading checks.
#include "apps/heat2d/layout.h"

#include <drift/archives.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "tests/apps/heat2d_rect.h"

namespace drift::heat2d {
namespace {

GrainChange split(std::uint32_t t, std::uint32_t d) { return {GrainKind::kSplit, t, d}; }
GrainChange merge(std::uint32_t t, std::uint32_t p) { return {GrainKind::kMerge, t, p}; }

// A 10 x 8 grid: task 0 the west half, 1 the east half, 2 and 3 spare.
Layout two_halves() {
  return Layout(10, 8, {rect(0, 8, 0, 5), rect(0, 8, 5, 10), std::nullopt, std::nullopt});
}

TEST(Layout, InitialLayoutIsTheTilingThenSpareTasks) {
  const Params params{31, 17, 12, 8, 3};
  const Layout layout = initial_layout(params);
  const Tiling tiling = *make_tiling(31, 17, 5);
  ASSERT_EQ(layout.tasks(), 8u);
  for (std::uint32_t i = 0; i < 5; ++i) {
    const Tile t = tile_of(tiling, i);
    EXPECT_EQ(layout.tile(i), (Rect{t.rows, t.cols})) << i;
  }
  for (std::uint32_t i = 5; i < 9; ++i) EXPECT_FALSE(layout.tile(i)) << i;
  EXPECT_EQ(layout.problem(31, 17, 8), "");
}

TEST(Layout, HalvesCutTheLongerSideFirstPartFloor) {
  EXPECT_EQ(halves(rect(0, 10, 0, 4)), std::pair(rect(0, 5, 0, 4), rect(5, 10, 0, 4)));
  EXPECT_EQ(halves(rect(2, 5, 1, 8)), std::pair(rect(2, 5, 1, 4), rect(2, 5, 4, 8)));
  EXPECT_EQ(halves(rect(0, 4, 0, 4)), std::pair(rect(0, 2, 0, 4), rect(2, 4, 0, 4)));  // ties: rows
  EXPECT_EQ(halves(rect(3, 6, 0, 3)), std::pair(rect(3, 4, 0, 3), rect(4, 6, 0, 3)));  // 1 + 2
  EXPECT_EQ(halves(rect(3, 4, 5, 7)), std::pair(rect(3, 4, 5, 6), rect(3, 4, 6, 7)));
}

TEST(Layout, SplitGivesTheSecondHalfToASpareTask) {
  Layout layout = two_halves();
  EXPECT_TRUE(layout.can_split(0));
  ASSERT_TRUE(layout.split(0, 3));
  EXPECT_EQ(layout.tile(0), rect(0, 4, 0, 5));
  EXPECT_EQ(layout.tile(3), rect(4, 8, 0, 5));
  EXPECT_EQ(layout.problem(10, 8, 4), "");
}

TEST(Layout, RefusedSplitsChangeNothing) {
  const Layout one_cell(
      3, 3, {rect(0, 1, 0, 3), rect(1, 2, 0, 3), rect(2, 3, 0, 1), rect(2, 3, 1, 3), std::nullopt});
  const auto refused = [](Layout layout, std::uint32_t t, std::uint32_t d) {
    const Layout before = layout;
    return !layout.split(t, d) && layout == before;
  };
  EXPECT_TRUE(refused(two_halves(), 0, 1));  // partner not spare
  EXPECT_TRUE(refused(two_halves(), 2, 3));  // spare tasks have nothing to split
  EXPECT_TRUE(refused(two_halves(), 0, 0));
  EXPECT_TRUE(refused(two_halves(), 0, 4));  // out of range
  EXPECT_TRUE(refused(two_halves(), 9, 2));
  EXPECT_TRUE(refused(one_cell, 2, 4));  // a single cell
  EXPECT_FALSE(one_cell.can_split(2));
  EXPECT_TRUE(one_cell.can_split(3));
}

TEST(Layout, MergeTakesAWholeSideAndFreesThePartner) {
  Layout layout = two_halves();
  ASSERT_TRUE(layout.split(0, 2));  // 0: rows [0, 4) west, 2: rows [4, 8) west
  EXPECT_EQ(layout.merge_partner(0), 2u);
  EXPECT_EQ(layout.merge_partner(1), std::nullopt);  // its west side is two tiles
  const Layout split_once = layout;
  EXPECT_FALSE(layout.merge(1, 0));  // not a full side: no rectangle
  EXPECT_FALSE(layout.merge(0, 3));  // 3 is spare
  EXPECT_FALSE(layout.merge(0, 0));
  EXPECT_FALSE(layout.merge(0, 7));
  EXPECT_EQ(layout, split_once);
  ASSERT_TRUE(layout.merge(2, 0));
  EXPECT_EQ(layout.tile(2), rect(0, 8, 0, 5));
  EXPECT_FALSE(layout.tile(0));
  EXPECT_EQ(layout.merge_partner(1), 2u);
  EXPECT_EQ(layout.merge_partner(0), std::nullopt);
}

TEST(Layout, ApplyIgnoresRefusedChangesAndIndicesNamedTwice) {
  Layout layout = two_halves();
  EXPECT_EQ(layout.apply({split(0, 2), split(0, 3), split(1, 2)}), (std::vector{split(0, 2)}));
  // merge {0, 1} is refused (not a full side), so 1 is named and its split is ignored too
  EXPECT_EQ(layout.apply({merge(0, 1), split(1, 3)}), std::vector<GrainChange>{});
  EXPECT_EQ(layout.apply({split(1, 1), split(1, 3)}), std::vector<GrainChange>{});
  EXPECT_EQ(layout.apply({split(1, 3), merge(0, 2)}), (std::vector{split(1, 3), merge(0, 2)}));
  EXPECT_EQ(layout.problem(10, 8, 4), "");
  EXPECT_EQ(layout.tile(0), rect(0, 8, 0, 5));
}

TEST(Layout, AdjacentListsEveryStretchOfSharedEdge) {
  Layout layout = two_halves();
  ASSERT_TRUE(layout.split(0, 2));
  EXPECT_EQ(layout.adjacent(1),
            (std::vector<Neighbour>{{0, kWest, Range{0, 4}}, {2, kWest, Range{4, 8}}}));
  EXPECT_EQ(layout.adjacent(0),
            (std::vector<Neighbour>{{1, kEast, Range{0, 4}}, {2, kSouth, Range{0, 5}}}));
  EXPECT_TRUE(layout.adjacent(3).empty());
}

// Brute force: every tile's cells and the cells just outside each of its sides.
void expect_partition_and_adjacency(const Layout& layout) {
  const std::uint32_t w = layout.width(), h = layout.height();
  ASSERT_EQ(layout.problem(w, h, layout.tasks()), "");
  std::vector<std::uint32_t> owner(std::size_t{w} * h, UINT32_MAX);
  for (std::uint32_t i = 0; i < layout.tasks(); ++i) {
    if (const auto r = layout.tile(i)) {
      for (std::uint32_t y = r->rows.begin; y < r->rows.end; ++y) {
        for (std::uint32_t x = r->cols.begin; x < r->cols.end; ++x) owner[y * w + x] = i;
      }
    }
  }
  for (std::uint32_t i = 0; i < layout.tasks(); ++i) {
    const std::vector<Neighbour> adjacent = layout.adjacent(i);
    std::vector<std::uint64_t> covered(kSides, 0);
    for (const Neighbour& n : adjacent) {
      covered[n.side] += n.overlap.size();
      const auto back = layout.adjacent(n.index);
      const auto it =
          std::find_if(back.begin(), back.end(), [&](const Neighbour& b) { return b.index == i; });
      ASSERT_NE(it, back.end()) << n.index << " does not list " << i;
      EXPECT_EQ(it->side, opposite(n.side));
      EXPECT_EQ(it->overlap, n.overlap);
    }
    const auto r = layout.tile(i);
    if (!r) {
      EXPECT_TRUE(adjacent.empty());
      continue;
    }
    const auto outside = [&](Side s, std::uint32_t along) -> std::uint32_t {
      const bool row = s == kNorth || s == kSouth;
      const std::uint32_t y = row ? (s == kNorth ? r->rows.begin - 1 : r->rows.end) : along;
      const std::uint32_t x = row ? along : (s == kWest ? r->cols.begin - 1 : r->cols.end);
      return owner[y * w + x];
    };
    const bool open[kSides] = {r->rows.begin > 0, r->rows.end<h, r->cols.begin> 0, r->cols.end < w};
    for (int s = 0; s < kSides; ++s) {
      const Range along = s < 2 ? r->cols : r->rows;
      EXPECT_EQ(covered[s], open[s] ? along.size() : 0u) << "task " << i << " side " << s;
      if (!open[s]) continue;
      for (std::uint32_t k = along.begin; k < along.end; ++k) {
        const std::uint32_t o = outside(static_cast<Side>(s), k);
        const bool listed = std::any_of(adjacent.begin(), adjacent.end(), [&](const Neighbour& n) {
          return n.index == o && n.side == s && n.overlap.begin <= k && k < n.overlap.end;
        });
        EXPECT_TRUE(listed) << "task " << i << " side " << s << " cell " << k;
      }
    }
  }
}

TEST(Layout, RandomSplitsAndMergesKeepAPartition) {
  std::mt19937_64 rng(20260105);
  for (const Params params :
       {Params{23, 17, 1, 12, 9}, Params{9, 40, 1, 16, 14}, Params{6, 6, 1, 20, 19}}) {
    Layout layout = initial_layout(params);
    int splits = 0, merges = 0;
    const auto pick = [&] { return static_cast<std::uint32_t>(rng() % (params.tasks + 1)); };
    // Mostly a task that is (or is not) spare, from a random start; sometimes any index.
    const auto pick_spare = [&](bool spare) {
      const std::uint32_t start = pick();
      for (std::uint32_t k = 0; k < params.tasks && rng() % 4 != 0; ++k) {
        const std::uint32_t i = (start + k) % params.tasks;
        if (layout.tile(i).has_value() != spare) return i;
      }
      return pick();
    };
    for (int round = 0; round < 400; ++round) {
      std::vector<GrainChange> changes;
      for (int k = 0; k < 3; ++k) {
        if (rng() % 2) {
          changes.push_back(split(pick_spare(false), pick_spare(true)));
          continue;
        }
        const std::uint32_t t = pick_spare(false);
        const auto partner = layout.merge_partner(t);
        changes.push_back(merge(t, partner && rng() % 4 != 0 ? *partner : pick()));
      }
      const Layout before = layout;
      const std::vector<GrainChange> done = layout.apply(changes);
      for (const GrainChange& c : done) ++(c.kind == GrainKind::kSplit ? splits : merges);
      Layout replay = before;  // the applied ones alone give the same layout
      for (const GrainChange& c : done) {
        ASSERT_TRUE(c.kind == GrainKind::kSplit ? replay.split(c.task, c.partner)
                                                : replay.merge(c.task, c.partner));
      }
      EXPECT_EQ(replay, layout);
      expect_partition_and_adjacency(layout);
    }
    EXPECT_GT(splits, 50);
    EXPECT_GT(merges, 50);
  }
}

TEST(Layout, ProblemNamesWhatIsWrong) {
  const Layout good = two_halves();
  EXPECT_EQ(good.problem(10, 8, 4), "");
  EXPECT_EQ(good.problem(10, 9, 4), "layout of a 10x8 grid, the job's is 10x9");
  EXPECT_EQ(good.problem(10, 8, 5), "layout of 4 tasks, the job has 5");
  EXPECT_EQ(Layout(10, 8, {rect(0, 8, 0, 6), rect(0, 8, 5, 10)}).problem(10, 8, 2),
            "tiles of tasks 0 and 1 overlap");
  EXPECT_EQ(Layout(10, 8, {rect(0, 8, 0, 4), rect(0, 8, 5, 10)}).problem(10, 8, 2),
            "tiles cover 72 of the grid's 80 cells");
  EXPECT_EQ(Layout(10, 8, {rect(0, 8, 0, 5), rect(0, 9, 5, 10)}).problem(10, 8, 2),
            "tile of task 1 (rows [0, 9) x columns [5, 10)) is empty or outside the 10x8 grid");
  EXPECT_NE(Layout(10, 8, {rect(0, 8, 0, 10), rect(3, 3, 5, 5)}).problem(10, 8, 2), "");
  EXPECT_NE(Layout(10, 8, {rect(0, 8, 0, 10), rect(5, 3, 5, 6)}).problem(10, 8, 2), "");
}

TEST(Layout, RoundTripsAndRefusesHostileBytes) {
  Layout layout = two_halves();
  ASSERT_TRUE(layout.split(1, 3));
  const std::vector<std::uint8_t> bytes = encode_portable(layout);
  Layout back;
  ASSERT_TRUE(decode_portable(bytes, back));
  EXPECT_EQ(back, layout);

  std::vector<std::uint8_t> bad_bool = bytes;
  bad_bool[1 + 4 + 4 + 8] = 2;  // flag, width, height, length: the first tile's bool
  EXPECT_FALSE(decode_portable(bad_bool, back));
  std::vector<std::uint8_t> huge = bytes;
  huge[1 + 4 + 4 + 7] = 0x7f;  // the length's top byte
  Status s = decode_portable(huge, back);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("exceeds"), std::string::npos) << s.message();
  EXPECT_FALSE(decode_portable(std::span(bytes).first(bytes.size() - 1), back));
}

}  // namespace
}  // namespace drift::heat2d
