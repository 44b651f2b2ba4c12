#include "balancer/send_trigger.h"

#include <gtest/gtest.h>

#include <cmath>

namespace drift::balance {
namespace {

TEST(SendTriggerTest, BalancedUtilizationIsTotalLoadOverTotalCapacity) {
  EXPECT_DOUBLE_EQ(balanced_utilization({{1, 30, 1}, {2, 10, 3}}), 10);
  // A member leaving the pool (no capacity) keeps its load in the sum: it must go somewhere.
  EXPECT_DOUBLE_EQ(balanced_utilization({{1, 20, 0}, {2, 20, 4}}), 10);
  EXPECT_EQ(balanced_utilization({{1, 5, 0}}), 0);
  EXPECT_EQ(balanced_utilization({}), 0);
}

TEST(SendTriggerTest, StepFloorsRaiseTheLevelAndAMemberAboveItSharesNone) {
  // 60 over capacities 1, 2, 3; node 3's steps take 8 s beyond L / C: at U = 14 node 1 holds 14,
  // node 2 28 and node 3 3 x (14 - 8) = 18, 60 in all.
  const std::vector<NodeLoad> group{{1, 30, 1}, {2, 30, 2}, {3, 0, 3, 8}};
  EXPECT_DOUBLE_EQ(balanced_utilization(group), 14);
  EXPECT_DOUBLE_EQ(balanced_load(group[2], 14), 18);
  EXPECT_DOUBLE_EQ(balanced_load(group[0], 14), 14);
  // With 20 s, above the level the others reach alone (60 / 3): they share the load without it.
  EXPECT_DOUBLE_EQ(balanced_utilization({{1, 30, 1}, {2, 30, 2}, {3, 0, 3, 20}}), 20);
  EXPECT_EQ(balanced_load({3, 0, 3, 20}, 20), 0);
  // Its own efficiency sees its floor: holding 1 at capacity 3 it takes 12.33 s a step.
  EXPECT_DOUBLE_EQ(own_efficiency({3, 1, 3, 12}, 10), 10 / (1.0 / 3 + 12));
}

TEST(SendTriggerTest, OwnEfficiencyIsBalancedOverOwnUtilization) {
  EXPECT_DOUBLE_EQ(own_efficiency({1, 40, 1}, 10), 0.25);
  EXPECT_EQ(own_efficiency({1, 5, 1}, 10), 1);  // below the balanced level
  EXPECT_EQ(own_efficiency({1, 0, 1}, 10), 1);  // nothing to send
  EXPECT_EQ(own_efficiency({1, 5, 0}, 10), 0);  // leaving the pool: send everything
  EXPECT_EQ(own_efficiency({1, 0, 0}, 10), 1);
}

TEST(SendTriggerTest, AnUnsettledNodeSendsBelowEffMin) {
  const TriggerParams p{0.95, 0.05};
  EXPECT_TRUE(should_send(0.94, false, p));
  EXPECT_FALSE(should_send(0.95, false, p));
  EXPECT_FALSE(should_send(1, false, p));
}

// Once a round found nothing to send, a few per cent of noise must not start it again: only an
// imbalance past the hysteresis does.
TEST(SendTriggerTest, ASettledNodeNeedsAClearlyLargerImbalance) {
  const TriggerParams p{0.95, 0.05};
  EXPECT_FALSE(should_send(0.94, true, p));
  EXPECT_FALSE(should_send(0.91, true, p));
  EXPECT_TRUE(should_send(0.89, true, p));
  EXPECT_TRUE(should_send(0, true, p));  // leaving the pool
}

TEST(SendTriggerTest, NoHysteresisIsThePlainThreshold) {
  const TriggerParams p{0.9, 0};
  EXPECT_EQ(should_send(0.89, true, p), should_send(0.89, false, p));
  EXPECT_FALSE(should_send(std::nan(""), false, p));
}

}  // namespace
}  // namespace drift::balance
