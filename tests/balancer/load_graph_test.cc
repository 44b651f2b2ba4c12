// LoadGraph builders and neighbours; utilization and efficiency (seed 000: U = L / C,
// eff = U_avg / U_max), including nodes without capacity.
#include "balancer/load_graph.h"

#include <gtest/gtest.h>

#include <cmath>

namespace drift::balance {
namespace {

using Edges = std::vector<std::pair<std::size_t, std::size_t>>;

std::vector<NodeLoad> nodes(std::size_t n) {
  std::vector<NodeLoad> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = {static_cast<std::uint32_t>(i), 1.0, 1.0};
  return out;
}

TEST(LoadGraphTest, StarLinksTheFirstNodeToEveryOther) {
  const LoadGraph g = LoadGraph::star(nodes(4));
  EXPECT_EQ(g.edges, (Edges{{0, 1}, {0, 2}, {0, 3}}));
  EXPECT_EQ(g.neighbours(0), (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_EQ(g.neighbours(2), (std::vector<std::size_t>{0}));
}

TEST(LoadGraphTest, CompleteLinksEveryPairOnce) {
  const LoadGraph g = LoadGraph::complete(nodes(4));
  EXPECT_EQ(g.edges.size(), 6u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(g.neighbours(i).size(), 3u);
}

TEST(LoadGraphTest, RingClosesOnlyFromThreeNodes) {
  EXPECT_EQ(LoadGraph::ring(nodes(4)).edges, (Edges{{0, 1}, {1, 2}, {2, 3}, {3, 0}}));
  EXPECT_EQ(LoadGraph::ring(nodes(2)).edges, (Edges{{0, 1}}));
  EXPECT_TRUE(LoadGraph::ring(nodes(1)).edges.empty());
  EXPECT_TRUE(LoadGraph::ring({}).edges.empty());
}

TEST(LoadGraphTest, MeshIsRowMajorWithAPartialLastRow) {
  // 0 1 2
  // 3 4
  const LoadGraph g = LoadGraph::mesh(nodes(5), 3);
  EXPECT_EQ(g.edges, (Edges{{0, 1}, {0, 3}, {1, 2}, {1, 4}, {3, 4}}));
  EXPECT_EQ(g.neighbours(4), (std::vector<std::size_t>{1, 3}));
  const LoadGraph square = LoadGraph::mesh(nodes(16), 4);
  EXPECT_EQ(square.edges.size(), 24u);
  EXPECT_EQ(square.neighbours(5), (std::vector<std::size_t>{1, 4, 6, 9}));
  EXPECT_EQ(LoadGraph::mesh(nodes(3), 0).edges, (Edges{{0, 1}, {1, 2}})) << "width 0: one row";
}

TEST(LoadGraphTest, NeighboursIgnoreLoopsRepeatsAndBadIndexes) {
  LoadGraph g{nodes(3), {{0, 1}, {1, 0}, {1, 1}, {1, 7}, {2, 1}}};
  EXPECT_EQ(g.neighbours(1), (std::vector<std::size_t>{0, 2}));
  EXPECT_TRUE(g.neighbours(9).empty());
}

TEST(LoadGraphTest, UtilizationIsLoadOverCapacity) {
  EXPECT_DOUBLE_EQ(utilization(10, 4), 2.5);
  EXPECT_DOUBLE_EQ(utilization(NodeLoad{0, 3, 6}), 0.5);
  EXPECT_EQ(utilization(0, 0), 0) << "no load needs no time, even without capacity";
  EXPECT_TRUE(std::isinf(utilization(1, 0)));
  EXPECT_TRUE(std::isinf(utilization(1, -2)));
}

TEST(LoadGraphTest, AStepFloorCountsOnlyWhileTheNodeHoldsLoad) {
  EXPECT_DOUBLE_EQ(utilization(NodeLoad{0, 1, 100, 0.03}), 0.04);
  EXPECT_DOUBLE_EQ(utilization(NodeLoad{0, 6, 100, 0.03}), 0.09);
  EXPECT_EQ(utilization(NodeLoad{0, 0, 100, 0.03}), 0) << "holding nothing, no step waits on it";
  EXPECT_DOUBLE_EQ(utilization(holding({0, 0, 100, 0.03}, 2)), 0.05);
}

TEST(LoadGraphTest, AnEmptyReceiverTakesOnTheFloorTheWorkBringsAlong) {
  // The sender holds 2 at capacity 100 with a floor of 4 ms; the receiver, twice as fast, last
  // measured 1 ms. All of the load moving: 4 ms * 100 / 200 = 2 ms there.
  const NodeLoad sender{1, 2, 100, 0.004}, idle{2, 0, 200, 0.001};
  EXPECT_DOUBLE_EQ(receiving(idle, sender, 2).floor, 0.002);
  EXPECT_DOUBLE_EQ(receiving(idle, sender, 2).load, 2);
  // Half of it: half the sender's overhead.
  EXPECT_DOUBLE_EQ(receiving(idle, sender, 1).floor, 0.001);
  EXPECT_DOUBLE_EQ(receiving(idle, sender, 0.5).floor, 0.001) << "its own floor is larger";
  // A receiver that holds work measured its floor with it: unchanged.
  EXPECT_DOUBLE_EQ(receiving({2, 1, 200, 0.001}, sender, 2).floor, 0.001);
  EXPECT_DOUBLE_EQ(receiving({2, 1, 200, 0.001}, sender, 2).load, 3);
  // Nothing to scale by: unchanged.
  EXPECT_DOUBLE_EQ(receiving(idle, {1, 2, 0, 0.004}, 2).floor, 0.001) << "sender leaving the pool";
  EXPECT_DOUBLE_EQ(receiving(idle, {1, 2, 100}, 2).floor, 0.001) << "sender without a floor";
  EXPECT_DOUBLE_EQ(receiving({2, 0, 0}, sender, 2).floor, 0) << "receiver without capacity";
}

TEST(LoadGraphTest, AnEmptyNodeWhoseFloorIsAboveThePeakIsNotPartOfThePool) {
  // U 0.02 and 0.02; the empty node would take 30 ms a step: balanced without it.
  EXPECT_DOUBLE_EQ(efficiency({{0, 2, 100}, {1, 4, 200}, {2, 0, 10, 0.03}}), 1.0);
  EXPECT_TRUE(sits_out({2, 0, 10, 0.03}, 0.02));
  // Below the peak it could help: it counts, idle.
  EXPECT_DOUBLE_EQ(efficiency({{0, 2, 100}, {1, 4, 200}, {2, 0, 10, 0.01}}), 2.0 / 3.0);
  EXPECT_FALSE(sits_out({2, 0, 10, 0.01}, 0.02));
  EXPECT_FALSE(sits_out({2, 1, 10, 0.03}, 0.02)) << "holding load it is in the pool";
  EXPECT_FALSE(sits_out({2, 0, 10}, 0.02)) << "no floor";
}

TEST(LoadGraphTest, EfficiencyIsAverageOverMaximumUtilization) {
  // U = 2, 1, 3: avg 2, max 3.
  EXPECT_DOUBLE_EQ(efficiency({{0, 4, 2}, {1, 1, 1}, {2, 39, 13}}), 2.0 / 3.0);
  // Load proportional to capacity is perfect, whatever the capacities.
  EXPECT_DOUBLE_EQ(efficiency({{0, 1, 1}, {1, 39, 39}, {2, 4.4, 4.4}}), 1.0);
}

TEST(LoadGraphTest, EfficiencyEdgeCases) {
  EXPECT_EQ(efficiency({}), 1);
  EXPECT_EQ(efficiency({{0, 0, 1}, {1, 0, 5}}), 1) << "all idle";
  EXPECT_EQ(efficiency({{0, 5, 1}}), 1) << "one node";
  EXPECT_EQ(efficiency({{0, 5, 1}, {1, 0, 1}}), 0.5) << "a node with zero load";
  EXPECT_EQ(efficiency({{0, 5, 1}, {1, 1, 0}}), 0) << "load on a node without capacity";
  EXPECT_EQ(efficiency({{0, 5, 1}, {1, 0, 0}}), 1) << "an empty node without capacity: not counted";
}

}  // namespace
}  // namespace drift::balance
