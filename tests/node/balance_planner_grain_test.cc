// balance_planner's granularity rules: a split when no whole task can meet a transfer, merges on
// a node with nothing to send.
#include <gtest/gtest.h>

#include "node/balance/balance_planner.h"

namespace drift {
namespace {

TaskView task(std::uint32_t index, double load, bool splittable = true) {
  TaskView t{TaskId{7, index}, load, {}};
  t.splittable = splittable;
  return t;
}

TEST(BalancePlannerGrainTest, SplitsTheLargestTaskWhenNoWholeTaskFits) {
  // Node 1 (capacity 1) holds two tasks of 100; node 2 (capacity 1) holds 120. Moving either
  // task would leave node 2 busier than node 1 was (220 > 200); half of one would not (170).
  RoundInput in{{1, 200, 1}, {{2, 120, 1}}, {task(0, 100), task(1, 100)}};
  RoundPlan plan = plan_round(in, {});
  EXPECT_TRUE(plan.moves.empty());
  ASSERT_EQ(plan.splits.size(), 1u);
  EXPECT_EQ(plan.splits[0].task, (TaskId{7, 0}));
  EXPECT_EQ(plan.splits[0].dest, 2u);
  EXPECT_TRUE(plan.merges.empty());
}

TEST(BalancePlannerGrainTest, SplitsTheLargestTaskWhoseHalfFitsSomewhere) {
  // Node 1 holds 400 and 200 at capacity 4 (150 s a step); node 2 is empty at capacity 1.
  // Neither task fits whole (node 2 at 200 or 400), nor half of the 400 (200 > 150); half of
  // the 200 does.
  RoundInput in{{1, 600, 4}, {{2, 0, 1}}, {task(0, 400), task(1, 200)}};
  RoundPlan plan = plan_round(in, {});
  EXPECT_TRUE(plan.moves.empty());
  ASSERT_EQ(plan.splits.size(), 1u);
  EXPECT_EQ(plan.splits[0].task, (TaskId{7, 1}));
}

TEST(BalancePlannerGrainTest, NoSplitWhenAWholeTaskMeetsTheTransfer) {
  RoundInput in{{1, 200, 1}, {{2, 0, 1}}, {task(0, 100), task(1, 100)}};
  RoundPlan plan = plan_round(in, {});
  EXPECT_EQ(plan.moves.size(), 1u);
  EXPECT_TRUE(plan.splits.empty());
}

TEST(BalancePlannerGrainTest, NoSplitOfATaskThatCannotSplitOrWhenEvenHalfIsTooMuch) {
  RoundInput unsplittable{{1, 160, 1}, {{2, 90, 1}}, {task(0, 100, false), task(1, 60, false)}};
  EXPECT_TRUE(plan_round(unsplittable, {}).splits.empty());
  // Even half of either task (50, 30) would leave node 2 above node 1's 160.
  RoundInput tight{{1, 160, 1}, {{2, 135, 1}}, {task(0, 100), task(1, 60)}};
  PlannerParams strict;
  strict.eff_min = 0.95;
  RoundPlan plan = plan_round(tight, strict);
  EXPECT_TRUE(plan.sending);
  EXPECT_TRUE(plan.moves.empty());
  EXPECT_TRUE(plan.splits.empty());
}

TEST(BalancePlannerGrainTest, NoSplitWhenTheGainCannotPayForTheMove) {
  TaskView t = task(0, 100);
  t.steps_left = 1;  // one step left: 30 s won once, for a 60 s move
  RoundInput in{{1, 100, 1}, {{2, 20, 1}}, {t}, 60};
  EXPECT_TRUE(plan_round(in, {}).splits.empty());
  in.tasks[0].steps_left = 100;
  EXPECT_EQ(plan_round(in, {}).splits.size(), 1u);
}

TEST(BalancePlannerGrainTest, ABalancedNodeMergesTasksHostedTogether) {
  TaskView a = task(0, 50), b = task(1, 50), c = task(2, 50);
  a.merge_partner = 1;
  b.merge_partner = 0;
  c.merge_partner = 9;  // not hosted here
  RoundInput in{{1, 150, 1}, {{2, 150, 1}}, {a, b, c}};
  RoundPlan plan = plan_round(in, {});
  ASSERT_EQ(plan.merges.size(), 1u);
  EXPECT_EQ(plan.merges[0].first, (TaskId{7, 0}));
  EXPECT_EQ(plan.merges[0].second, (TaskId{7, 1}));
}

TEST(BalancePlannerGrainTest, ANodeThatMustSendDoesNotMerge) {
  TaskView a = task(0, 100), b = task(1, 100);
  a.merge_partner = 1;
  RoundInput in{{1, 200, 1}, {{2, 120, 1}}, {a, b}};
  RoundPlan plan = plan_round(in, {});
  EXPECT_TRUE(plan.merges.empty());
  EXPECT_FALSE(plan.splits.empty());
}

}  // namespace
}  // namespace drift
