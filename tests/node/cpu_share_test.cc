// cpu_share: what a node got of its CPU quota, from recorded thread times.
#include "node/machine/cpu_share.h"

#include <gtest/gtest.h>

namespace drift {
namespace {

TEST(CpuShareTest, ParsesSchedstat) {
  auto t = parse_schedstat("333471864 418924 23\n");
  ASSERT_TRUE(t);
  EXPECT_NEAR(t->cpu_s, 0.333471864, 1e-12);
  EXPECT_NEAR(t->wait_s, 0.000418924, 1e-12);
  EXPECT_FALSE(parse_schedstat("garbage"));
  EXPECT_FALSE(parse_schedstat(nullptr));
}

TEST(CpuShareTest, ANodeThatGotItsQuotaHasNoExternalLoad) {
  // 0.2 core for 2 s: 0.4 s of CPU; the worker ran or waited (throttled) the whole time.
  EXPECT_EQ(quota_shortfall_load(0.4, 2.0, 2.0, 0.2), 0.0);
  // Its own throttling is no one else's load, however long it waited.
  EXPECT_EQ(quota_shortfall_load(0.35, 2.0, 2.0, 0.2), 0.0);
}

TEST(CpuShareTest, AShortfallIsExternalLoad) {
  // Half its quota: as if one other program shared its core.
  EXPECT_NEAR(*quota_shortfall_load(0.2, 2.0, 2.0, 0.2), 1.0, 1e-12);
  // A fifth: four others.
  EXPECT_NEAR(*quota_shortfall_load(0.08, 2.0, 2.0, 0.2), 4.0, 1e-12);
  // Nothing at all: capped at 19 (a twentieth).
  EXPECT_NEAR(*quota_shortfall_load(0.0, 2.0, 2.0, 0.2), 19.0, 1e-12);
}

TEST(CpuShareTest, IdleWorkersSayNothing) {
  EXPECT_FALSE(quota_shortfall_load(0.01, 0.5, 2.0, 0.2));
  EXPECT_FALSE(quota_shortfall_load(0.3, 1.7, 2.0, 0.2));  // blocked 15 % of the time
  EXPECT_FALSE(quota_shortfall_load(0.4, 2.0, 0.0, 0.2));
}

TEST(CpuShareTest, AJudgedIntervalIsSmoothedIntoTheLast) {
  EXPECT_EQ(next_share_load(std::nullopt, 3.0), 3.0);
  EXPECT_EQ(next_share_load(1.0, 3.0), 2.0);
  EXPECT_EQ(next_share_load(2.0, 0.0), 1.0);
}

TEST(CpuShareTest, WorkersWaitingForMessagesLetTheLastFadeOrHaveNoShortfall) {
  // Recorded in the real-CPU testbed: a node measured 9.5 then 1.46 in its job's start-up burst,
  // and its workers, given fewer tasks for it, never wanted the CPU enough to be judged again.
  std::optional<double> load = next_share_load(9.5, 1.46);
  EXPECT_NEAR(*load, 5.48, 1e-9);
  EXPECT_NEAR(*next_share_load(load, std::nullopt), 0.8 * 5.48, 1e-9);  // no jump
  for (int second = 0; second < 20; ++second) load = next_share_load(load, std::nullopt);
  EXPECT_LT(*load, 0.1);  // within half a minute it no longer holds the node's capacity down
  // Never judged (a halo-bound job): no shortfall, not the machine's load average — recorded in
  // the real-CPU testbed's equal-quota heat2d row, where that average counted the eight other
  // daemons and nodes divided their capacity by 20 as it rose.
  EXPECT_EQ(next_share_load(std::nullopt, std::nullopt), 0.0);
}

TEST(CpuShareTest, OneBusyThreadIsJudgedByOneCoreNotABiggerQuota) {
  // Quota 1.5 cores, one worker thread computing all of 1 s: it can use one core.
  EXPECT_EQ(quota_shortfall_load(1.0, 1.0, 1.0, 1.5), 0.0);
}

}  // namespace
}  // namespace drift
