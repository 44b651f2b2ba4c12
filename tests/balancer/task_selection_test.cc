// select_tasks: the 0-1 knapsack that meets one transfer (seed 000): as close to the target as
// possible without passing target * (1 + tolerance), then communication locality and light state.
#include "balancer/task_selection.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

namespace drift::balance {
namespace {

std::vector<Candidate> loads(std::initializer_list<double> ls) {
  std::vector<Candidate> out;
  for (double l : ls) out.push_back({out.size() + 100, l, 0, 0});
  return out;
}

double chosen_load(const std::vector<Candidate>& c, const std::vector<std::size_t>& picked) {
  double sum = 0;
  for (std::size_t i : picked) sum += c[i].load;
  return sum;
}

SelectionParams plain() {
  SelectionParams p;
  p.tolerance = 0;
  return p;
}

TEST(TaskSelectionTest, FindsAnExactSubset) {
  const auto c = loads({8, 5, 7, 3, 11, 2});
  const auto picked = select_tasks(c, 17, plain());  // 8 + 7 + 2, 5 + 7 + 3 + 2, ...
  EXPECT_DOUBLE_EQ(chosen_load(c, picked), 17);
  EXPECT_TRUE(std::is_sorted(picked.begin(), picked.end()));
}

TEST(TaskSelectionTest, FindsAnExactSubsetOfFractionalLoads) {
  const auto c = loads({0.8, 0.55, 0.7, 0.35, 1.1, 0.25});
  EXPECT_NEAR(chosen_load(c, select_tasks(c, 1.7, plain())), 1.7, 1e-9);
}

TEST(TaskSelectionTest, ComesClosestFromBelowWithoutTolerance) {
  const auto c = loads({6, 6, 6});
  EXPECT_DOUBLE_EQ(chosen_load(c, select_tasks(c, 17, plain())), 12);
}

TEST(TaskSelectionTest, ToleranceAllowsAClosePassButNotAFarOne) {
  const auto c = loads({6, 6, 6});
  SelectionParams p = plain();
  p.tolerance = 0.06;  // bound 18.02: three tasks (18) are 1 away, two (12) are 5 away
  EXPECT_DOUBLE_EQ(chosen_load(c, select_tasks(c, 17, p)), 18);
  p.tolerance = 0.05;  // bound 17.85
  EXPECT_DOUBLE_EQ(chosen_load(c, select_tasks(c, 17, p)), 12);
}

TEST(TaskSelectionTest, PrefersExactOverAPassWithinTolerance) {
  const auto c = loads({10, 5, 5.4});
  SelectionParams p = plain();
  p.tolerance = 0.1;
  EXPECT_DOUBLE_EQ(chosen_load(c, select_tasks(c, 10, p)), 10);
}

TEST(TaskSelectionTest, NeverExceedsTheBound) {
  // Pseudo-random loads and targets; a deterministic sequence.
  std::uint64_t x = 12345;
  const auto next = [&x] {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(x >> 11) / static_cast<double>(1ULL << 53);
  };
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<Candidate> c;
    const int n = 1 + static_cast<int>(next() * 30);
    for (int i = 0; i < n; ++i) c.push_back({0, next() * 10, 0, next() - 0.5});
    SelectionParams p;
    p.tolerance = next() * 0.2;
    p.locality_weight = next();
    p.max_buckets = 50 + static_cast<std::size_t>(next() * 500);
    const double target = next() * 40;
    const auto picked = select_tasks(c, target, p);
    EXPECT_LE(chosen_load(c, picked), target * (1 + p.tolerance) * (1 + 1e-12)) << trial;
  }
}

TEST(TaskSelectionTest, LocalityBreaksTiesTowardTheDestination) {
  std::vector<Candidate> c = {{1, 4, 0, 0}, {2, 4, 0, 3}, {3, 4, 0, -1}};
  EXPECT_EQ(select_tasks(c, 4, SelectionParams{}), (std::vector<std::size_t>{1}));
  EXPECT_EQ(select_tasks(c, 8, SelectionParams{}), (std::vector<std::size_t>{0, 1}));
}

TEST(TaskSelectionTest, LocalityOutweighsOnlyASmallLoadDifference) {
  // Worth locality_weight * locality = 0.3 load units: beats 0.2 of distance, not 0.5.
  std::vector<Candidate> c = {{1, 5, 0, 0}, {2, 4.8, 0, 3}};
  SelectionParams p = plain();
  EXPECT_EQ(select_tasks(c, 5, p), (std::vector<std::size_t>{1}));
  c[1].load = 4.5;
  EXPECT_EQ(select_tasks(c, 5, p), (std::vector<std::size_t>{0}));
}

TEST(TaskSelectionTest, BytesCostPrefersLightStates) {
  std::vector<Candidate> c = {{1, 3, 50'000'000, 0}, {2, 3, 1'000, 0}, {3, 3, 20'000'000, 0}};
  SelectionParams p;
  p.bytes_weight = 1e-8;  // 100 MB of state costs one load unit
  EXPECT_EQ(select_tasks(c, 3, p), (std::vector<std::size_t>{1}));
  EXPECT_EQ(select_tasks(c, 6, p), (std::vector<std::size_t>{1, 2}));
}

TEST(TaskSelectionTest, ATaskNotWorthItsStateStaysHome) {
  std::vector<Candidate> c = {{1, 2, 1'000'000'000, 0}};
  SelectionParams p;
  p.bytes_weight = 1e-8;  // 10 load units of cost to move 2
  EXPECT_TRUE(select_tasks(c, 2, p).empty());
}

TEST(TaskSelectionTest, EmptyCandidatesZeroOrBadTargets) {
  EXPECT_TRUE(select_tasks({}, 10, SelectionParams{}).empty());
  const auto c = loads({1, 2, 3});
  EXPECT_TRUE(select_tasks(c, 0, SelectionParams{}).empty());
  EXPECT_TRUE(select_tasks(c, -5, SelectionParams{}).empty());
  EXPECT_TRUE(select_tasks(c, std::nan(""), SelectionParams{}).empty());
  EXPECT_TRUE(select_tasks(c, 0.5, plain()).empty()) << "every task is bigger than the target";
}

TEST(TaskSelectionTest, BadCandidatesAreNeverChosen) {
  std::vector<Candidate> c = {{1, -3, 0, 0},
                              {2, std::nan(""), 0, 0},
                              {3, 2, 0, 0},
                              {4, INFINITY, 0, 0},
                              {5, 1, 0, std::nan("")}};
  EXPECT_EQ(select_tasks(c, 3, SelectionParams{}), (std::vector<std::size_t>{2}));
}

TEST(TaskSelectionTest, CoarseResolutionStaysWithinTheBound) {
  const auto c = loads({3.3, 3.3, 3.3, 0.1});
  SelectionParams p = plain();
  p.max_buckets = 4;
  const auto picked = select_tasks(c, 6.7, p);
  EXPECT_LE(chosen_load(c, picked), 6.7);
  EXPECT_GE(chosen_load(c, picked), 3.3);
}

TEST(TaskSelectionTest, ManyTasksAreFast) {
  std::vector<Candidate> c;
  for (int i = 0; i < 2000; ++i) c.push_back({0, 1.0 + (i % 97) * 0.013, 0, (i % 7) * 0.1});
  const double all = std::accumulate(c.begin(), c.end(), 0.0,
                                     [](double s, const Candidate& x) { return s + x.load; });
  const auto picked = select_tasks(c, all / 3, SelectionParams{});
  EXPECT_NEAR(chosen_load(c, picked), all / 3, 0.01 * all / 3);
}

}  // namespace
}  // namespace drift::balance
