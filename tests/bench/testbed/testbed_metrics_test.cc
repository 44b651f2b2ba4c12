// testbed_metrics: steady step, convergence, ideal step, growth after a time.
#include "tests/bench/testbed/testbed_metrics.h"
#include "tests/bench/testbed/testbed_real.h"

#include <gtest/gtest.h>

namespace drift::bench {
namespace {

TEST(TestbedMetricsTest, SteadyStepIsTheMedianOfTheLastThird) {
  EXPECT_DOUBLE_EQ(steady_step({9, 5, 1, 1.2, 0.9, 1.1, 1.0, 1.3, 0.8}), 1.0);  // {1.0, 1.3, 0.8}
  EXPECT_DOUBLE_EQ(steady_step({4}), 4);
  EXPECT_DOUBLE_EQ(steady_step({}), 0);
}

TEST(TestbedMetricsTest, ConvergedFromTheFirstStepThatStaysNearTheSteadyTime) {
  const std::vector<double> steps{9, 5, 1.5, 1.05, 1.0, 1.1, 1.0};
  EXPECT_EQ(converged_step(steps, 1.0, 0.15), 3u);
  EXPECT_EQ(converged_step(steps, 1.0, 0.6), 2u);
  EXPECT_EQ(converged_step({1, 2}, 1, 0.1), 2u);
}

TEST(TestbedMetricsTest, StepEndsAccumulate) {
  EXPECT_EQ(step_ends({1, 2, 0.5}), (std::vector<double>{1, 3, 3.5}));
}

TEST(TestbedMetricsTest, IdealStepDividesWorkByTheTotalCapacity) {
  // 1288 units at 10 units/s on speeds summing to 128.8: 1 s.
  EXPECT_DOUBLE_EQ(ideal_step(1288, 10, {1, 4.4, 6, 6, 6, 6.8, 8.6, 13, 38, 39}), 1.0);
  // An external load of 1 halves a node's share.
  EXPECT_DOUBLE_EQ(ideal_step(300, 100, {1, 1, 2}, {0, 0, 1}), 1.0);
}

TEST(TestbedMetricsTest, GrowthAfterATime) {
  const std::vector<std::pair<double, std::uint64_t>> s{{0, 0}, {1, 10}, {2, 30}, {3, 30}, {4, 31}};
  EXPECT_EQ(growth_after(s, 2.5), 1u);
  EXPECT_EQ(growth_after(s, 0.5), 31u);
  EXPECT_EQ(growth_after(s, 9), 0u);
  EXPECT_EQ(growth_after({}, 1), 0u);
}

}  // namespace
}  // namespace drift::bench

namespace drift::bench {
namespace {

TEST(RealTestbed, QuotasFollowTheRatiosSumToTheTotalAndStayUnderTheCeiling) {
  const auto q = scaled_quotas({1, 3, 4}, 1.6, 1.0);
  ASSERT_EQ(q.size(), 3u);
  EXPECT_DOUBLE_EQ(q[0], 0.2);
  EXPECT_DOUBLE_EQ(q[1], 0.6);
  EXPECT_DOUBLE_EQ(q[2], 0.8);
  const auto capped = scaled_quotas({1, 9}, 1.75, 1.0);
  EXPECT_DOUBLE_EQ(capped[1], 1.0);  // 1.575 asked, one worker uses at most a core
  EXPECT_DOUBLE_EQ(capped[0], 0.175);
}

TEST(RealTestbed, TheWorstShareErrorIsRelativeToTheQuotaShare) {
  // Quotas 1:3 (25 % / 75 %); advertised 30 % / 70 %: node 1 is off by 20 %, node 2 by 6.7 %.
  EXPECT_NEAR(worst_share_error({30, 70}, {0.25, 0.75}), 0.2, 1e-12);
  EXPECT_NEAR(worst_share_error({2, 6}, {0.1, 0.3}), 0.0, 1e-12);
  EXPECT_EQ(worst_share_error({}, {0.1, 0.3}), 0.0);
  EXPECT_NEAR(worst_share_error({5}, {0.5, 0.5}), 1.0, 1e-12);  // node 2 advertised nothing
}

TEST(TestbedMetricsTest, ReachedAtIsTheLastReportBeforeTheSteps) {
  const std::vector<std::pair<std::uint64_t, double>> progress{{1, 3.0}, {2, 3.5}, {4, 4.1}};
  EXPECT_DOUBLE_EQ(reached_at(progress, 3), 3.5);  // 2 steps at 3.5 s, 4 only at 4.1 s
  EXPECT_DOUBLE_EQ(reached_at(progress, 2), 3.0);
  EXPECT_DOUBLE_EQ(reached_at(progress, 1), 0);
  EXPECT_DOUBLE_EQ(reached_at(progress, 9), 4.1);
}

TEST(TestbedMetricsTest, WholeTaskBoundIsWhatTheBestWholeCountsReach) {
  EXPECT_DOUBLE_EQ(whole_task_bound(8, {1, 1, 1, 1}), 1.0);  // two each
  // 3 tasks on capacities 2 and 1: 2 + 1 is exact.
  EXPECT_DOUBLE_EQ(whole_task_bound(3, {2, 1}), 1.0);
  // 2 tasks on 2 and 1: both on the fast one (1 s) beats one each (1 s on the slow one): fluid
  // 2/3 s, so 2/3.
  EXPECT_NEAR(whole_task_bound(2, {2, 1}), 2.0 / 3, 1e-12);
  // A node too slow for a whole task gets none.
  EXPECT_NEAR(whole_task_bound(4, {1, 1, 1, 0.01}), (4 / 3.01) / 2, 1e-12);
}

}  // namespace
}  // namespace drift::bench
