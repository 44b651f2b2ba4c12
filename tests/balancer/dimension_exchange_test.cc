// Heterogeneous GDE (seed 000): a proper link colouring, the weighted exchange step, and sweeps
// colour by colour with loads adjusted after each colour.
#include "balancer/dimension_exchange.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "balancer/link_flows.h"
#include "tests/balancer/balancing_sim.h"

namespace drift::balance {
namespace {

void expect_proper(const BalanceProblem& p, const std::vector<std::vector<std::size_t>>& colours) {
  std::vector<bool> coloured(p.links.size(), false);
  std::size_t max_degree = 0;
  for (const auto& arcs : p.adj) max_degree = std::max(max_degree, arcs.size());
  EXPECT_LE(colours.size(), std::max<std::size_t>(2 * max_degree, 1) - 1 + (max_degree == 0));
  for (const auto& colour : colours) {
    std::set<std::size_t> ends;
    for (std::size_t k : colour) {
      EXPECT_FALSE(coloured[k]) << "link " << k << " coloured twice";
      coloured[k] = true;
      EXPECT_TRUE(ends.insert(p.links[k].first).second) << "a node with two links of one colour";
      EXPECT_TRUE(ends.insert(p.links[k].second).second) << "a node with two links of one colour";
    }
  }
  for (std::size_t k = 0; k < coloured.size(); ++k) EXPECT_TRUE(coloured[k]) << "link " << k;
}

TEST(DimensionExchangeTest, ColouringIsProper) {
  const std::vector<LoadGraph> graphs = {LoadGraph::ring(sim::testbed_nodes(8, 1)),
                                         LoadGraph::ring(sim::testbed_nodes(7, 1)),
                                         LoadGraph::mesh(sim::testbed_nodes(16, 3), 4),
                                         LoadGraph::complete(sim::testbed_nodes(9, 2)),
                                         LoadGraph::star(sim::testbed_nodes(12, 2)),
                                         sim::random_connected(sim::testbed_nodes(40, 10), 40, 11)};
  for (const auto& g : graphs) {
    const BalanceProblem p = BalanceProblem::from(g, false);
    expect_proper(p, colour_links(p));
  }
  EXPECT_EQ(
      colour_links(BalanceProblem::from(LoadGraph::ring(sim::testbed_nodes(8, 1)), false)).size(),
      2u)
      << "an even ring needs two colours";
}

TEST(DimensionExchangeTest, StepEvensAPairWithLambdaOne) {
  // C_j L_i - C_i L_j over C_i + C_j: 70 on capacity 3 and 0 on capacity 4 meet at U = 10.
  EXPECT_DOUBLE_EQ(exchange_step(70, 3, 0, 4, 1.0), 40);
  EXPECT_DOUBLE_EQ(exchange_step(70, 3, 0, 4, 0.5), 20);
  EXPECT_DOUBLE_EQ(exchange_step(0, 4, 70, 3, 1.0), -40);
  EXPECT_DOUBLE_EQ(exchange_step(30, 3, 40, 4, 1.0), 0);
}

TEST(DimensionExchangeTest, OneSweepOfAPathByHand) {
  // Path 0 - 1 - 2, capacities 1: colours {0-1}, {1-2}. λ = 1:
  // colour 0: 0 and 1 even out: 12, 0 -> 6, 6; colour 1: 1 and 2: 6, 0 -> 3, 3.
  const BalanceProblem p =
      BalanceProblem::from(LoadGraph{{{0, 12, 1}, {1, 0, 1}, {2, 0, 1}}, {{0, 1}, {1, 2}}}, false);
  StrategyParams params;
  params.lambda = 1;
  params.eff_min = 0.999;
  params.max_sweeps = 1;
  const LinkFlows flows = dimension_exchange(p, params);
  EXPECT_DOUBLE_EQ(flows[0], 6);
  EXPECT_DOUBLE_EQ(flows[1], 3);
}

TEST(DimensionExchangeTest, LambdaOutsideItsRangeIsTheDefault) {
  const BalanceProblem p =
      BalanceProblem::from(LoadGraph{{{0, 12, 1}, {1, 0, 1}}, {{0, 1}}}, false);
  StrategyParams params;
  params.max_sweeps = 1;
  params.eff_min = 0.999;
  params.lambda = 0.5;
  const double half = dimension_exchange(p, params)[0];
  EXPECT_DOUBLE_EQ(half, 3);
  for (double bad : {0.0, -1.0, 1.5, std::nan("")}) {
    params.lambda = bad;
    EXPECT_DOUBLE_EQ(dimension_exchange(p, params)[0], half) << bad;
  }
}

TEST(DimensionExchangeTest, SweepsUntilEffMin) {
  const BalanceProblem p = BalanceProblem::from(LoadGraph::ring(sim::testbed_nodes(16, 2)), false);
  StrategyParams params;
  params.eff_min = 0.95;
  params.max_sweeps = 1000;
  const auto after = loads_after(p, dimension_exchange(p, params));
  const double eff = efficiency(p, after);
  EXPECT_GE(eff, 0.95);
  EXPECT_LT(eff, 0.99) << "stops soon after reaching eff_min";
}

}  // namespace
}  // namespace drift::balance
