// Net link flows to Transfers: negligible flows dropped, seed 001's no-oscillation rule enforced
// on the applied result, link order kept.
#include "balancer/link_flows.h"

#include <gtest/gtest.h>

#include <cmath>

namespace drift::balance {
namespace {

BalanceProblem path(std::vector<NodeLoad> nodes) {
  LoadGraph g{std::move(nodes), {}};
  for (std::size_t i = 0; i + 1 < g.nodes.size(); ++i) g.edges.emplace_back(i, i + 1);
  return BalanceProblem::from(g, false);
}

TEST(LinkFlowsTest, LoadsAfterApplySignedFlows) {
  const BalanceProblem p = path({{0, 10, 1}, {1, 0, 1}, {2, 5, 1}});
  const auto after = loads_after(p, {4, -2});  // 0 -> 1: 4; 2 -> 1: 2
  EXPECT_EQ(after, (std::vector<double>{6, 6, 3}));
}

TEST(LinkFlowsTest, AddFlowCountsLeavingTheNode) {
  const BalanceProblem p = path({{0, 10, 1}, {1, 0, 1}});
  LinkFlows flows(1, 0.0);
  add_flow(flows, p.adj[0][0], 3);  // 0 -> 1
  add_flow(flows, p.adj[1][0], 1);  // 1 -> 0
  EXPECT_DOUBLE_EQ(flows[0], 2);
}

TEST(LinkFlowsTest, KeepOrderGivesBackWhatEvensAnOvershoot) {
  // 10 -> 0 moving 8 would leave 2 and 8: give back 3, both at 5.
  const BalanceProblem p = path({{0, 10, 1}, {1, 0, 1}});
  LinkFlows flows{8};
  keep_order(p, flows);
  EXPECT_DOUBLE_EQ(flows[0], 5);
}

TEST(LinkFlowsTest, KeepOrderLeavesPassThroughThatEndsInOrder) {
  // 12 on the left end of a path: 8 then 4 onwards ends at 4, 4, 4.
  const BalanceProblem p = path({{0, 12, 1}, {1, 0, 1}, {2, 0, 1}});
  LinkFlows flows{8, 4};
  keep_order(p, flows);
  EXPECT_EQ(flows, (LinkFlows{8, 4}));
}

TEST(LinkFlowsTest, KeepOrderCanDropAFlowEntirely) {
  // 1 -> 0 would raise the busier node 0.
  const BalanceProblem p = path({{0, 10, 1}, {1, 4, 1}});
  LinkFlows flows{-2};
  keep_order(p, flows);
  EXPECT_DOUBLE_EQ(flows[0], 0);
}

TEST(LinkFlowsTest, TransfersInLinkOrderWithoutNegligibleOnes) {
  const BalanceProblem p = path({{0, 1e6, 1}, {1, 0, 1}, {2, 0, 1}, {3, 1e6, 1}});
  const auto transfers = to_transfers(p, {1000, 1e-9, -2000});
  ASSERT_EQ(transfers.size(), 2u);
  EXPECT_EQ(transfers[0].from, 0u);
  EXPECT_EQ(transfers[0].to, 1u);
  EXPECT_DOUBLE_EQ(transfers[0].amount, 1000);
  EXPECT_EQ(transfers[1].from, 3u) << "a negative flow runs from the second end";
  EXPECT_EQ(transfers[1].to, 2u);
  EXPECT_DOUBLE_EQ(transfers[1].amount, 2000);
}

TEST(LinkFlowsTest, NoTransfersWithoutLoad) {
  const BalanceProblem p = path({{0, 0, 1}, {1, 0, 1}});
  EXPECT_TRUE(to_transfers(p, {0}).empty());
  EXPECT_TRUE(to_transfers(p, {std::nan("")}).empty());
}

}  // namespace
}  // namespace drift::balance
