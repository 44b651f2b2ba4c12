// plan_for_self: what one node sends to the members of its local group, from its own view. Only
// sends from self, one per receiver, largest first; after them every receiver is still at or
// below self; members without capacity get nothing, and a self without capacity gives all away.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "balancer/profitability.h"
#include "balancer/strategy.h"
#include "tests/balancer/balancing_sim.h"

namespace drift::balance {
namespace {

using sim::kAll;
using sim::tight;

double sum(const std::vector<Transfer>& sends) {
  double s = 0;
  for (const auto& t : sends) s += t.amount;
  return s;
}

// Homogeneous takes every valid capacity as 1; a member without capacity keeps none.
double seen_capacity(Strategy s, const NodeLoad& n) {
  return s == Strategy::kHomogeneous && n.capacity > 0 ? 1.0 : n.capacity;
}

void expect_sound(Strategy s, const std::vector<NodeLoad>& group, std::size_t self,
                  const std::vector<Transfer>& sends) {
  std::set<std::size_t> receivers;
  double left = group[self].load;
  for (std::size_t k = 0; k < sends.size(); ++k) {
    const Transfer& t = sends[k];
    EXPECT_EQ(t.from, self);
    ASSERT_LT(t.to, group.size());
    EXPECT_NE(t.to, self);
    EXPECT_GT(t.amount, 0);
    EXPECT_TRUE(receivers.insert(t.to).second) << "two sends to " << t.to;
    if (k > 0) {
      EXPECT_GE(sends[k - 1].amount, t.amount) << "not largest first";
    }
    left -= t.amount;
  }
  EXPECT_GE(left, -1e-12 * group[self].load) << "sends more than self holds";
  const double u_self = left / seen_capacity(s, group[self]);
  for (const auto& t : sends) {
    const double u_to = (group[t.to].load + t.amount) / seen_capacity(s, group[t.to]);
    if (group[self].capacity > 0) {
      EXPECT_LE(u_to, u_self * (1 + 1e-9)) << "member " << t.to << " ends above self";
    }
    // What the daemon can check before each move: self after its other sends.
    const NodeLoad sender{0, left + t.amount, seen_capacity(s, group[self])};
    const NodeLoad receiver{0, group[t.to].load, seen_capacity(s, group[t.to])};
    EXPECT_TRUE(keeps_order(sender, receiver, t.amount)) << "member " << t.to;
  }
}

class PlanTest : public ::testing::TestWithParam<Strategy> {};

TEST_P(PlanTest, NothingForABadSelfOrALoneNode) {
  const std::vector<NodeLoad> group{{1, 50, 1}, {2, 0, 1}};
  EXPECT_TRUE(plan_for_self(GetParam(), group, 2, tight()).empty());
  EXPECT_TRUE(plan_for_self(GetParam(), {{1, 50, 1}}, 0, tight()).empty());
  EXPECT_TRUE(plan_for_self(GetParam(), {}, 0, tight()).empty());
}

TEST_P(PlanTest, NothingWhenBalancedIdleOrLeast) {
  const bool homogeneous = GetParam() == Strategy::kHomogeneous;
  std::vector<NodeLoad> balanced{{1, 10, 1}, {2, 390, 39}, {3, 44, 4.4}};
  if (homogeneous) {
    for (auto& n : balanced) n.load = 10;
  }
  EXPECT_TRUE(plan_for_self(GetParam(), balanced, 1, tight()).empty());
  EXPECT_TRUE(plan_for_self(GetParam(), {{1, 0, 1}, {2, 0, 6}}, 0, tight()).empty());
  const std::vector<NodeLoad> group{{1, 1, 6}, {2, 50, 6}, {3, 90, 6}};
  EXPECT_TRUE(plan_for_self(GetParam(), group, 0, tight()).empty()) << "self is the least loaded";
}

TEST_P(PlanTest, SoundForEveryMemberOfTestbedGroups) {
  const std::vector<LoadGraph> graphs = {
      LoadGraph::ring(sim::testbed_nodes(8, 1)),
      sim::random_connected(sim::testbed_nodes(40, 10), 20, 11),
      sim::id_ring(sim::testbed_nodes(20, 12), 4),
  };
  for (const auto& g : graphs) {
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
      std::vector<NodeLoad> group{g.nodes[i]};
      for (std::size_t j : g.neighbours(i)) group.push_back(g.nodes[j]);
      SCOPED_TRACE(i);
      expect_sound(GetParam(), group, 0, plan_for_self(GetParam(), group, 0, tight()));
    }
  }
}

TEST_P(PlanTest, SelfMayBeAnyMemberOfTheGroup) {
  const std::vector<NodeLoad> group{{1, 5, 1}, {2, 300, 6}, {3, 0, 13}};
  const auto sends = plan_for_self(GetParam(), group, 1, tight());
  expect_sound(GetParam(), group, 1, sends);
  ASSERT_FALSE(sends.empty());
  EXPECT_EQ(sends.front().to, 2u);
}

TEST_P(PlanTest, APairEvensOut) {
  // Self 60 on capacity 2, the other empty on capacity 1: both at U = 20 after moving 20.
  const std::vector<NodeLoad> pair{{1, 60, 2}, {2, 0, 1}};
  const auto sends = plan_for_self(GetParam(), pair, 0, tight());
  ASSERT_EQ(sends.size(), 1u);
  EXPECT_EQ(sends[0].to, 1u);
  const double even = GetParam() == Strategy::kHomogeneous ? 30 : 20;
  // Diffusion and GDE stop once the pair's efficiency reaches eff_min, and Figure 1's two
  // estimates of a link's flow agree only in the limit.
  EXPECT_NEAR(sends[0].amount, even, 0.01 * even);
}

TEST_P(PlanTest, AMemberWithoutCapacityGetsNothing) {
  for (double capacity : {0.0, -1.0, std::nan("")}) {
    const std::vector<NodeLoad> group{{1, 90, 3}, {2, 0, capacity}, {3, 0, 3}};
    const auto sends = plan_for_self(GetParam(), group, 0, tight());
    expect_sound(GetParam(), group, 0, sends);
    ASSERT_EQ(sends.size(), 1u) << "capacity " << capacity;
    EXPECT_EQ(sends[0].to, 2u);
    EXPECT_NEAR(sends[0].amount, 45, 0.5);
  }
}

TEST_P(PlanTest, SelfWithoutCapacityGivesItsLoadAway) {
  // Whatever the strategy, filling the members to a common utilization; homogeneous sees both
  // members alike.
  const std::vector<NodeLoad> group{{1, 80, 0}, {2, 0, 1}, {3, 0, 3}};
  const auto sends = plan_for_self(GetParam(), group, 0, tight());
  expect_sound(GetParam(), group, 0, sends);
  ASSERT_EQ(sends.size(), 2u);
  EXPECT_NEAR(sum(sends), 80, 0.1);
  const double to_fast = GetParam() == Strategy::kHomogeneous ? 40 : 60;
  EXPECT_EQ(sends[0].to, GetParam() == Strategy::kHomogeneous ? 1u : 2u);
  EXPECT_NEAR(sends[0].amount, to_fast, 0.1);
}

INSTANTIATE_TEST_SUITE_P(Strategies, PlanTest, ::testing::ValuesIn(kAll),
                         [](const auto& info) { return to_string(info.param); });

TEST(PlanForSelfTest, HomogeneousIgnoresCapacities) {
  // Equal loads on machines 1 to 39 times as fast: balanced, as far as CPU-time-blind
  // homogeneous balancing can tell (seed 000).
  const std::vector<NodeLoad> group{{1, 50, 1}, {2, 50, 39}, {3, 50, 6}};
  EXPECT_TRUE(plan_for_self(Strategy::kHomogeneous, group, 1, tight()).empty());
  EXPECT_FALSE(plan_for_self(Strategy::kDiffusion, group, 0, tight()).empty());
}

TEST(PlanForSelfTest, HbmFillsMembersBelowTheGroupAverage) {
  // Group utilization 120 / 12 = 10: the capacity-2 member needs 20, the capacity-1 one 10, the
  // one already at 10 nothing. Self (capacity 4, U = 17.5) is at 10 after sending 30.
  const std::vector<NodeLoad> group{{1, 70, 4}, {2, 0, 2}, {3, 0, 1}, {4, 50, 5}};
  const auto sends = plan_for_self(Strategy::kHbm, group, 0, tight());
  ASSERT_EQ(sends.size(), 2u);
  EXPECT_EQ(sends[0].to, 1u);
  EXPECT_NEAR(sends[0].amount, 20, 1e-9);
  EXPECT_EQ(sends[1].to, 2u);
  EXPECT_NEAR(sends[1].amount, 10, 1e-9);
}

TEST(PlanForSelfTest, RidMembersDemandTheirPairwiseShare) {
  // Each member's domain is itself and self (Eq. 1-2): self 48 on capacity 4, the member 12 on
  // capacity 3, so the domain's utilization is 60 / 7 and the member demands 3 * 60 / 7 - 12,
  // which evens the two out.
  const std::vector<NodeLoad> group{{1, 48, 4}, {2, 12, 3}};
  const auto sends = plan_for_self(Strategy::kRid, group, 0, tight());
  ASSERT_EQ(sends.size(), 1u);
  EXPECT_NEAR(sends[0].amount, 3 * 60.0 / 7 - 12, 1e-9);
}

}  // namespace
}  // namespace drift::balance
