// Heterogeneous HBM (seed 000): recursive bisection with ΔL_12 = (C_2 L_1 - C_1 L_2) / (C_1 +
// C_2); one pass leaves every node of a connected component at the same utilization, moving load
// only along links.
#include "balancer/hierarchical_balancing.h"

#include <gtest/gtest.h>

#include <set>

#include "balancer/link_flows.h"
#include "tests/balancer/balancing_sim.h"

namespace drift::balance {
namespace {

std::vector<std::size_t> all(std::size_t n) {
  std::vector<std::size_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

void expect_connected(const BalanceProblem& p, const std::vector<std::size_t>& part) {
  std::set<std::size_t> in(part.begin(), part.end()), seen{part.front()};
  std::vector<std::size_t> queue{part.front()};
  for (std::size_t head = 0; head < queue.size(); ++head) {
    for (const Arc& a : p.adj[queue[head]]) {
      if (in.count(a.to) && seen.insert(a.to).second) queue.push_back(a.to);
    }
  }
  EXPECT_EQ(seen.size(), in.size());
}

TEST(HierarchicalBalancingTest, BisectionOrderIsAPermutationWithAConnectedFirstHalf) {
  const std::vector<LoadGraph> graphs = {LoadGraph::ring(sim::testbed_nodes(16, 2)),
                                         LoadGraph::mesh(sim::testbed_nodes(16, 3), 4),
                                         sim::random_connected(sim::testbed_nodes(30, 8), 15, 9)};
  for (const auto& g : graphs) {
    const BalanceProblem p = BalanceProblem::from(g, false);
    const auto order = bisection_order(p, all(p.size()));
    EXPECT_EQ(std::set<std::size_t>(order.begin(), order.end()).size(), p.size());
    expect_connected(p, {order.begin(), order.begin() + (order.size() + 1) / 2});
  }
}

TEST(HierarchicalBalancingTest, RingHalvesAreArcs) {
  const BalanceProblem p = BalanceProblem::from(LoadGraph::ring(sim::testbed_nodes(8, 1)), false);
  const auto order = bisection_order(p, all(8));
  expect_connected(p, {order.begin(), order.begin() + 4});
  expect_connected(p, {order.begin() + 4, order.end()});
}

TEST(HierarchicalBalancingTest, OnePassBalancesExactly) {
  const std::vector<LoadGraph> graphs = {LoadGraph::ring(sim::testbed_nodes(16, 2)),
                                         LoadGraph::mesh(sim::testbed_nodes(16, 3), 4),
                                         LoadGraph::star(sim::testbed_nodes(10, 5)),
                                         sim::random_connected(sim::testbed_nodes(40, 10), 20, 11)};
  for (const auto& g : graphs) {
    const BalanceProblem p = BalanceProblem::from(g, false);
    const auto after = loads_after(p, hierarchical_balancing(p));
    const double u = p.total_load() / [&] {
      double c = 0;
      for (double x : p.capacity) c += x;
      return c;
    }();
    for (std::size_t i = 0; i < p.size(); ++i) {
      EXPECT_NEAR(after[i] / p.capacity[i], u, 1e-9 * u) << "node " << i;
    }
  }
}

TEST(HierarchicalBalancingTest, TwoNodesMoveTheFormulasAmount) {
  // ΔL_12 = (C_2 L_1 - C_1 L_2) / (C_1 + C_2) = (4 * 70 - 3 * 0) / 7 = 40.
  const BalanceProblem p =
      BalanceProblem::from(LoadGraph{{{0, 70, 3}, {1, 0, 4}}, {{0, 1}}}, false);
  EXPECT_DOUBLE_EQ(hierarchical_balancing(p)[0], 40);
}

TEST(HierarchicalBalancingTest, LoadCrossesTheCutAlongAPath) {
  // Path 0 - 1 - 2 - 3, all on node 0: every link carries what lies beyond it.
  const BalanceProblem p = BalanceProblem::from(
      LoadGraph{{{0, 40, 1}, {1, 0, 1}, {2, 0, 1}, {3, 0, 1}}, {{0, 1}, {1, 2}, {2, 3}}}, false);
  const LinkFlows flows = hierarchical_balancing(p);
  EXPECT_NEAR(flows[0], 30, 1e-12);
  EXPECT_NEAR(flows[1], 20, 1e-12);
  EXPECT_NEAR(flows[2], 10, 1e-12);
}

TEST(HierarchicalBalancingTest, OnACompleteGraphOnlyOverloadedNodesSend) {
  // Routed from members above the final utilization to members below it, each at most its
  // excess or deficit: nobody passes load on.
  const LoadGraph g = LoadGraph::complete(sim::testbed_nodes(10, 6));
  const BalanceProblem p = BalanceProblem::from(g, false);
  const LinkFlows flows = hierarchical_balancing(p);
  double c = 0;
  for (double x : p.capacity) c += x;
  const double u = p.total_load() / c;
  for (std::size_t k = 0; k < flows.size(); ++k) {
    if (flows[k] == 0) continue;
    const auto [a, b] = p.links[k];
    const std::size_t from = flows[k] > 0 ? a : b, to = flows[k] > 0 ? b : a;
    EXPECT_GT(p.load[from] / p.capacity[from], u);
    EXPECT_LT(p.load[to] / p.capacity[to], u);
  }
}

TEST(HierarchicalBalancingTest, ComponentsBalanceToTheirOwnUtilization) {
  const BalanceProblem p = BalanceProblem::from(
      LoadGraph{{{0, 30, 1}, {1, 0, 2}, {2, 8, 1}, {3, 0, 3}}, {{0, 1}, {2, 3}}}, false);
  const auto after = loads_after(p, hierarchical_balancing(p));
  EXPECT_NEAR(after[0], 10, 1e-12);
  EXPECT_NEAR(after[1], 20, 1e-12);
  EXPECT_NEAR(after[2], 2, 1e-12);
  EXPECT_NEAR(after[3], 6, 1e-12);
}

}  // namespace
}  // namespace drift::balance
