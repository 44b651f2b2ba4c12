#include "node/jobs/placement.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

namespace drift {
namespace {

using Nodes = std::vector<std::pair<std::uint32_t, double>>;

std::map<std::uint32_t, std::uint32_t> counts(const std::vector<std::uint32_t>& placement) {
  std::map<std::uint32_t, std::uint32_t> c;
  for (auto node : placement) ++c[node];
  return c;
}

// Each node's tasks form one contiguous range, and ranges appear in node-id order.
bool contiguous_in_id_order(const std::vector<std::uint32_t>& placement) {
  for (std::size_t i = 1; i < placement.size(); ++i) {
    if (placement[i] < placement[i - 1]) return false;
  }
  return true;
}

TEST(PlacementTest, EqualCapacitiesSplitEvenly) {
  auto p = place_by_capacity(12, {{3, 1.0}, {1, 1.0}, {2, 1.0}});
  ASSERT_EQ(p.size(), 12u);
  EXPECT_EQ(counts(p), (std::map<std::uint32_t, std::uint32_t>{{1, 4}, {2, 4}, {3, 4}}));
  EXPECT_EQ(p.front(), 1u);
  EXPECT_TRUE(contiguous_in_id_order(p));
}

TEST(PlacementTest, RemainderTiesGoToLowerNodeIds) {
  auto p = place_by_capacity(10, {{7, 2.5}, {5, 2.5}, {9, 2.5}, {8, 2.5}});
  EXPECT_EQ(counts(p), (std::map<std::uint32_t, std::uint32_t>{{5, 3}, {7, 3}, {8, 2}, {9, 2}}));
  EXPECT_EQ(p, (std::vector<std::uint32_t>{5, 5, 5, 7, 7, 7, 8, 8, 9, 9}));
}

TEST(PlacementTest, LargestRemainderWins) {
  // Quotas 10 * (1, 2, 7) / 10 = 1, 2, 7 exactly; 11 tasks: 1.1, 2.2, 7.7 -> the 0.7 gets the seat.
  EXPECT_EQ(counts(place_by_capacity(11, {{1, 1}, {2, 2}, {3, 7}})),
            (std::map<std::uint32_t, std::uint32_t>{{1, 1}, {2, 2}, {3, 8}}));
}

TEST(PlacementTest, FortyFoldSpreadIsProportional) {
  auto p = place_by_capacity(410, {{1, 40.0}, {2, 1.0}});
  EXPECT_EQ(counts(p), (std::map<std::uint32_t, std::uint32_t>{{1, 400}, {2, 10}}));
  EXPECT_TRUE(contiguous_in_id_order(p));
  // Few tasks: the slow node may get nothing at all.
  EXPECT_EQ(counts(place_by_capacity(8, {{1, 40.0}, {2, 1.0}})),
            (std::map<std::uint32_t, std::uint32_t>{{1, 8}}));
}

TEST(PlacementTest, MoreNodesThanTasks) {
  Nodes nodes;
  for (std::uint32_t id = 1; id <= 10; ++id) nodes.push_back({id, 1.0});
  auto p = place_by_capacity(3, nodes);
  EXPECT_EQ(p, (std::vector<std::uint32_t>{1, 2, 3}));
}

TEST(PlacementTest, NodesWithoutCapacityGetNothing) {
  auto p = place_by_capacity(6, {{1, 0.0}, {2, 3.0}, {3, -1.0}, {4, std::nan("")}, {5, 3.0}});
  EXPECT_EQ(p, (std::vector<std::uint32_t>{2, 2, 2, 5, 5, 5}));
  EXPECT_TRUE(place_by_capacity(6, {{1, 0.0}}).empty());
}

TEST(PlacementTest, EmptyInputs) {
  EXPECT_TRUE(place_by_capacity(5, {}).empty());
  EXPECT_TRUE(place_by_capacity(0, {{1, 1.0}}).empty());
}

TEST(PlacementTest, SumsAndContiguityOverManyShapes) {
  for (std::uint32_t tasks : {1u, 7u, 64u, 1000u, 4097u}) {
    for (std::uint32_t n : {1u, 2u, 3u, 13u, 50u}) {
      Nodes nodes;
      double total = 0;
      for (std::uint32_t i = 0; i < n; ++i) {
        const double capacity = 0.5 + (i * 37 % 11);  // uneven but deterministic
        nodes.push_back({100 - i, capacity});
        total += capacity;
      }
      auto p = place_by_capacity(tasks, nodes);
      ASSERT_EQ(p.size(), tasks);
      EXPECT_TRUE(contiguous_in_id_order(p));
      auto c = counts(p);
      for (const auto& [id, capacity] : nodes) {
        const double quota = tasks * capacity / total;
        EXPECT_LE(std::abs(static_cast<double>(c[id]) - quota), 1.0) << tasks << " " << n;
      }
    }
  }
}

}  // namespace
}  // namespace drift

namespace drift {
namespace {

TEST(PlacementTest, SpareTasksAreSpreadLikeTheWorkingOnes) {
  // 3 working tasks and 6 spare ones on capacities 1:2: a third of each on node 1.
  auto p = place_job(9, 6, {{1, 1.0}, {2, 2.0}});
  EXPECT_EQ(p, (std::vector<std::uint32_t>{1, 2, 2, 1, 1, 2, 2, 2, 2}));
  EXPECT_EQ(place_job(4, 0, {{1, 1.0}, {2, 1.0}}), place_by_capacity(4, {{1, 1.0}, {2, 1.0}}));
  EXPECT_TRUE(place_job(4, 2, {}).empty());
}

}  // namespace
}  // namespace drift
