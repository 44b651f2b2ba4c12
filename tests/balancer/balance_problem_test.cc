// BalanceProblem::from: sanitized loads and capacities, distinct links, adjacency by neighbour;
// efficiency over the problem; connected components.
#include "balancer/balance_problem.h"

#include <gtest/gtest.h>

#include <cmath>

namespace drift::balance {
namespace {

TEST(BalanceProblemTest, SanitizesLoadsAndCapacities) {
  const LoadGraph g{{{0, -5, 2},
                     {1, std::nan(""), 8},
                     {2, 3, 0},
                     {3, INFINITY, -1},
                     {4, 7, std::nan("")},
                     {5, 1, INFINITY}},
                    {}};
  const BalanceProblem p = BalanceProblem::from(g, false);
  EXPECT_EQ(p.load, (std::vector<double>{0, 0, 3, 0, 7, 1}));
  EXPECT_EQ(p.has_capacity, (std::vector<bool>{true, true, false, false, false, false}));
  EXPECT_DOUBLE_EQ(p.capacity[0], 2);
  EXPECT_DOUBLE_EQ(p.capacity[1], 8);
  for (std::size_t i = 2; i < 6; ++i) EXPECT_DOUBLE_EQ(p.capacity[i], 8e-9) << i;
}

TEST(BalanceProblemTest, UnitCapacityKeepsTheInvalidOnesTiny) {
  const BalanceProblem p = BalanceProblem::from(LoadGraph{{{0, 1, 39}, {1, 1, 0}}, {}}, true);
  EXPECT_DOUBLE_EQ(p.capacity[0], 1);
  EXPECT_DOUBLE_EQ(p.capacity[1], 1e-9);
}

TEST(BalanceProblemTest, LinksAreDistinctAndAdjacencySorted) {
  const LoadGraph g{{{0, 1, 1}, {1, 1, 1}, {2, 1, 1}},
                    {{2, 0}, {0, 2}, {1, 1}, {0, 1}, {1, 5}, {1, 2}}};
  const BalanceProblem p = BalanceProblem::from(g, false);
  using Links = std::vector<std::pair<std::size_t, std::size_t>>;
  EXPECT_EQ(p.links, (Links{{0, 2}, {0, 1}, {1, 2}}));
  ASSERT_EQ(p.adj[0].size(), 2u);
  EXPECT_EQ(p.adj[0][0].to, 1u);
  EXPECT_EQ(p.adj[0][0].link, 1u);
  EXPECT_EQ(p.adj[0][0].sign, 1);
  EXPECT_EQ(p.adj[2][0].to, 0u);
  EXPECT_EQ(p.adj[2][0].sign, -1);
}

TEST(BalanceProblemTest, EfficiencySkipsEmptyNodesWithoutCapacity) {
  const BalanceProblem p =
      BalanceProblem::from(LoadGraph{{{0, 4, 1}, {1, 2, 1}, {2, 0, 0}}, {}}, false);
  EXPECT_DOUBLE_EQ(efficiency(p, {4, 2, 0}), 0.75);
  EXPECT_NEAR(efficiency(p, {4, 2, 1e-3}), 1.0 / 3, 1e-3) << "holding load, it counts (as U_max)";
  EXPECT_DOUBLE_EQ(efficiency(p, {0, 0, 0}), 1);
}

TEST(BalanceProblemTest, Components) {
  const BalanceProblem p =
      BalanceProblem::from(LoadGraph{std::vector<NodeLoad>(6), {{4, 1}, {1, 0}, {2, 5}}}, false);
  EXPECT_EQ(components(p), (std::vector<std::vector<std::size_t>>{{0, 1, 4}, {2, 5}, {3}}));
}

}  // namespace
}  // namespace drift::balance
