// Receiver-initiated diffusion (seed 004 Eq. 1-2), heterogeneous: a node below its domain's
// average demands from each neighbour in proportion to that neighbour's excess; senders serve
// their askers without dropping below any of them.
#include "balancer/receiver_initiated.h"

#include <gtest/gtest.h>

#include "balancer/link_flows.h"

namespace drift::balance {
namespace {

TEST(ReceiverInitiatedTest, EquationsOneAndTwoWithEqualCapacities) {
  // l = 2 (receiver), 10, 6, 2: l_avg = 5; h = 5, 1, 0; h_sum = 6; d_i = (5 - 2) h_i / 6.
  const std::vector<double> load{2, 10, 6, 2}, capacity(4, 1.0);
  const auto d = rid_demands(load, capacity, {0, 1, 2, 3}, 0);
  EXPECT_DOUBLE_EQ(d[0], 0);
  EXPECT_DOUBLE_EQ(d[1], 3 * 5.0 / 6);
  EXPECT_DOUBLE_EQ(d[2], 3 * 1.0 / 6);
  EXPECT_DOUBLE_EQ(d[3], 0);
}

TEST(ReceiverInitiatedTest, HeterogeneousDemandsBringTheReceiverToTheDomainsUtilization) {
  // Capacities 2, 1, 5; loads 0, 30, 40: u_avg = 70 / 8; the receiver wants 2 * 70/8 = 17.5;
  // excesses 30 - 70/8 = 21.25 and 40 - 5 * 70/8 = -3.75 (none).
  const std::vector<double> load{0, 30, 40}, capacity{2, 1, 5};
  const auto d = rid_demands(load, capacity, {0, 1, 2}, 0);
  EXPECT_DOUBLE_EQ(d[1], 17.5);
  EXPECT_DOUBLE_EQ(d[2], 0);
}

TEST(ReceiverInitiatedTest, NoDemandAtOrAboveTheAverage) {
  const std::vector<double> load{10, 10, 0}, capacity{1, 1, 1};
  for (double x : rid_demands(load, capacity, {0, 1, 2}, 0)) EXPECT_EQ(x, 0);
  for (double x : rid_demands(load, capacity, {1, 2}, 1)) EXPECT_EQ(x, 0);
}

TEST(ReceiverInitiatedTest, DomainOrderAndSubsetsAreRespected) {
  const std::vector<double> load{100, 0, 50, 7}, capacity{1, 1, 1, 1};
  // Receiver 1 with domain {2, 1}: avg 25, demands 25 from node 2; node 0 is not in it.
  const auto d = rid_demands(load, capacity, {2, 1}, 1);
  ASSERT_EQ(d.size(), 2u);
  EXPECT_DOUBLE_EQ(d[0], 25);
  EXPECT_DOUBLE_EQ(d[1], 0);
}

TEST(ReceiverInitiatedTest, ASenderServesTheNeediestFirstAndStaysAboveThem) {
  // Star: centre 0 (12) with leaves 1 (0), 2 (4), 3 (10); capacities 1. Domains are pairs with
  // the centre: leaf 1 asks 6 (avg 6), leaf 2 asks 4 (avg 8), leaf 3 asks 1 (avg 11). The centre
  // gives leaf 1 its 6, then leaf 2 only what keeps it at 8: nothing (it is at 6). One step.
  const BalanceProblem p =
      BalanceProblem::from(LoadGraph::star({{0, 12, 1}, {1, 0, 1}, {2, 4, 1}, {3, 10, 1}}), false);
  StrategyParams params;
  params.eff_min = 0.999;
  params.max_sweeps = 1;
  const LinkFlows flows = receiver_initiated(p, params);
  EXPECT_DOUBLE_EQ(flows[0], 6);
  EXPECT_DOUBLE_EQ(flows[1], 0);
  EXPECT_DOUBLE_EQ(flows[2], 0);
}

TEST(ReceiverInitiatedTest, RepeatedStepsBalanceAPath) {
  const BalanceProblem p =
      BalanceProblem::from(LoadGraph{{{0, 90, 1}, {1, 0, 2}, {2, 0, 3}}, {{0, 1}, {1, 2}}}, false);
  StrategyParams params;
  params.eff_min = 0.999;
  params.max_sweeps = 200;
  const auto after = loads_after(p, receiver_initiated(p, params));
  EXPECT_GE(efficiency(p, after), 0.999);
}

}  // namespace
}  // namespace drift::balance
