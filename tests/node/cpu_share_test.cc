// cpu_share: what a node got of its CPU quota, from recorded thread times.
#include "node/machine/cpu_share.h"

#include <gtest/gtest.h>

namespace drift {
namespace {

// One busy worker thread that ran or waited `wanted` seconds.
std::optional<double> one_thread(double node_cpu, double wanted, double wall, double quota) {
  const double threads[] = {wanted};
  return quota_shortfall_load(node_cpu, threads, wall, quota);
}

TEST(CpuShareTest, ANodeThatGotItsQuotaHasNoExternalLoad) {
  // 0.2 core for 2 s: 0.4 s of CPU; the worker ran or waited (throttled) the whole time.
  EXPECT_EQ(one_thread(0.4, 2.0, 2.0, 0.2), 0.0);
  // Its own throttling is no one else's load, however long it waited.
  EXPECT_EQ(one_thread(0.35, 2.0, 2.0, 0.2), 0.0);
}

TEST(CpuShareTest, AShortfallIsExternalLoad) {
  // Half its quota: as if one other program shared its core.
  EXPECT_NEAR(*one_thread(0.2, 2.0, 2.0, 0.2), 1.0, 1e-12);
  // A fifth: four others.
  EXPECT_NEAR(*one_thread(0.08, 2.0, 2.0, 0.2), 4.0, 1e-12);
  // Nothing at all: capped at 19 (a twentieth).
  EXPECT_NEAR(*one_thread(0.0, 2.0, 2.0, 0.2), 19.0, 1e-12);
}

TEST(CpuShareTest, IdleWorkersSayNothing) {
  EXPECT_FALSE(one_thread(0.01, 0.5, 2.0, 0.2));
  EXPECT_FALSE(one_thread(0.3, 1.7, 2.0, 0.2));  // blocked 15 % of the time
  EXPECT_FALSE(one_thread(0.4, 2.0, 0.0, 0.2));
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
  EXPECT_EQ(one_thread(1.0, 1.0, 1.0, 1.5), 0.0);
}

TEST(CpuShareTest, EachThreadIsJudgedByItself) {
  // Recorded shape from the real-CPU testbed's equal-quota particles row (0.194 core, 1 s): the
  // computing thread ran or waited 0.7 s and blocked the rest, waiting for a slower neighbour;
  // the I/O thread, woken by every message, waited 0.45 s in throttled periods. Together they
  // "wanted" 1.15 s and the node, which got 0.136 s, seemed to have lost 30 % of its quota.
  const double waiting_for_a_neighbour[] = {0.70, 0.45, 0.01};
  EXPECT_FALSE(quota_shortfall_load(0.136, waiting_for_a_neighbour, 1.0, 0.194));
  // The same node computing the whole second got all of it: no shortfall.
  const double computing[] = {1.0, 0.45, 0.01};
  EXPECT_EQ(quota_shortfall_load(0.19, computing, 1.0, 0.194), 0.0);
  // And if it got half while computing, half is what it got, whatever the other threads did.
  EXPECT_NEAR(*quota_shortfall_load(0.097, computing, 1.0, 0.194), 1.0, 1e-9);
}

TEST(CpuShareTest, SeveralBusyThreadsCanUseAsManyCoresAsTheQuotaGives) {
  // Two computing threads under a 1.5-core quota may use all of it; with 1.5 s of CPU in a
  // second they got it, with 0.75 s half of it. One idle thread beside them changes nothing.
  const double two_busy[] = {1.0, 1.0, 0.05};
  EXPECT_EQ(quota_shortfall_load(1.5, two_busy, 1.0, 1.5), 0.0);
  EXPECT_NEAR(*quota_shortfall_load(0.75, two_busy, 1.0, 1.5), 1.0, 1e-9);
  // No threads at all, or none busy: nothing to judge by.
  EXPECT_FALSE(quota_shortfall_load(0.1, std::span<const double>(), 1.0, 1.5));
}

}  // namespace
}  // namespace drift
