// JobCheckpoints: when checkpoints are due, when a step commits, where tasks are restored.
#include "node/jobs/job_checkpoints.h"

#include <gtest/gtest.h>

namespace drift {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
const Clock::time_point kCheckpointsT0{};

TEST(JobCheckpoints, DueEveryKStepsButNeverAtTheLastStep) {
  JobCheckpoints c(2, CheckpointPolicy{5, 0ms}, kCheckpointsT0);
  EXPECT_FALSE(c.due(0, 20, kCheckpointsT0));
  EXPECT_FALSE(c.due(3, 20, kCheckpointsT0));
  EXPECT_TRUE(c.due(4, 20, kCheckpointsT0));  // 5 steps done
  EXPECT_TRUE(c.due(9, 20, kCheckpointsT0));
  EXPECT_FALSE(c.due(19, 20, kCheckpointsT0));  // the job ends with it
}

TEST(JobCheckpoints, DueAfterTheIntervalSinceTheLastOne) {
  JobCheckpoints c(2, CheckpointPolicy{0, 1000ms}, kCheckpointsT0);
  EXPECT_FALSE(c.due(0, 100, kCheckpointsT0 + 999ms));
  EXPECT_TRUE(c.due(0, 100, kCheckpointsT0 + 1000ms));
  c.begin(0, {1.0}, kCheckpointsT0 + 1000ms);
  EXPECT_FALSE(c.acknowledge(0, 0, {1, 2}));  // one of two tasks
  EXPECT_TRUE(c.acknowledge(1, 0, {2, 1}));
  EXPECT_FALSE(c.due(1, 100, kCheckpointsT0 + 1500ms));
  EXPECT_TRUE(c.due(2, 100, kCheckpointsT0 + 2000ms));
}

// A copy that takes longer than the interval to store stretches the interval: no second
// checkpoint piles onto the partners while the first is still travelling.
TEST(JobCheckpoints, NoneIsDueWhileThePreviousIsStillBeingStored) {
  JobCheckpoints c(2, CheckpointPolicy{0, 1000ms}, kCheckpointsT0);
  c.begin(0, {1.0}, kCheckpointsT0 + 1000ms);
  EXPECT_FALSE(c.acknowledge(0, 0, {1, 2}));
  EXPECT_FALSE(c.due(5, 100, kCheckpointsT0 + 2500ms));  // task 1's copy not stored yet
  EXPECT_TRUE(c.acknowledge(1, 0, {2, 1}));
  EXPECT_TRUE(
      c.due(6, 100, kCheckpointsT0 + 2600ms));  // stored: due at once, the interval has passed
  c.begin(6, {}, kCheckpointsT0 + 2600ms);
  EXPECT_FALSE(c.due(7, 100, kCheckpointsT0 + 6599ms));
  EXPECT_TRUE(c.due(8, 100, kCheckpointsT0 + 6600ms));  // 4 intervals: an acknowledgement was lost
  c.force_next();
  c.begin(8, {}, kCheckpointsT0 + 6600ms);
  c.force_next();
  EXPECT_TRUE(
      c.due(9, 100, kCheckpointsT0 + 6700ms));  // forced (a recovery) goes ahead all the same
}

// A job checkpointing by steps only (a fast job: 20 steps go by in milliseconds) must not wait
// 4 s of pending for an acknowledgement that will never come (its copy went to a node that
// fenced itself): after 4 times every_steps steps the next checkpoint goes ahead.
TEST(JobCheckpoints, APendingOneHoldsAStepPolicyBackForFourTimesItsStepsAtMost) {
  JobCheckpoints c(2, CheckpointPolicy{20, 0ms}, kCheckpointsT0);
  c.begin(119, {}, kCheckpointsT0);
  EXPECT_FALSE(c.acknowledge(0, 119, {1, 2}));  // task 1's acknowledgement is lost
  EXPECT_FALSE(c.due(139, 1000, kCheckpointsT0 + 10ms));
  EXPECT_FALSE(c.due(179, 1000, kCheckpointsT0 + 20ms));
  EXPECT_TRUE(c.due(199, 1000, kCheckpointsT0 + 30ms));  // 80 steps after it began
  c.begin(199, {}, kCheckpointsT0 + 30ms);
  EXPECT_FALSE(c.acknowledge(0, 199, {1, 2}));
  EXPECT_TRUE(c.acknowledge(1, 199, {2, 1}));
  EXPECT_EQ(c.committed()->step, 199u);
  EXPECT_EQ(c.pending(), 0u);  // the older one is gone with it
}

// A big state on a slow node takes long to save and copy: the next checkpoint by time waits 20
// times what the last took, so checkpoints never take more than ~5 % of the job's time.
TEST(JobCheckpoints, TheIntervalStretchesToTwentyTimesWhatTheLastCheckpointTook) {
  JobCheckpoints c(1, CheckpointPolicy{0, 5000ms}, kCheckpointsT0);
  c.begin(0, {}, kCheckpointsT0 + 5s);
  EXPECT_TRUE(c.acknowledge(0, 0, {1, 2}, kCheckpointsT0 + 15s));  // it took 10 s
  EXPECT_FALSE(c.due(3, 100, kCheckpointsT0 + 20s));  // the interval alone would say yes
  EXPECT_FALSE(c.due(3, 100, kCheckpointsT0 + 204s));
  EXPECT_TRUE(c.due(3, 100, kCheckpointsT0 + 205s));  // 20 x 10 s after it began
  c.begin(3, {}, kCheckpointsT0 + 205s);
  EXPECT_TRUE(
      c.acknowledge(0, 3, {1, 2}, kCheckpointsT0 + 205100ms));  // 0.1 s: back to the interval
  EXPECT_FALSE(c.due(4, 100, kCheckpointsT0 + 209s));
  EXPECT_TRUE(c.due(4, 100, kCheckpointsT0 + 210s));
  c.begin(4, {}, kCheckpointsT0 + 210s);
  c.force_next();
  EXPECT_TRUE(c.due(5, 100, kCheckpointsT0 + 210s));  // forced (a recovery) goes ahead all the same
}

// A holder gone (dead, left, fenced): the next step checkpoints again if it held a committed
// copy, or while one is pending (its copies may have gone to it, never to be acknowledged, which
// would hold checkpoints back for 4 intervals); a node that held nothing changes nothing.
TEST(JobCheckpoints, AHolderGoneForcesTheNextWhenItHeldACopyOrOneIsPending) {
  JobCheckpoints c(2, CheckpointPolicy{0, 1000ms}, kCheckpointsT0);
  c.begin(4, {}, kCheckpointsT0);
  c.acknowledge(0, 4, {1, 2});
  c.acknowledge(1, 4, {2, 3});
  EXPECT_FALSE(c.holder_gone(5));  // held nothing, nothing pending
  EXPECT_FALSE(c.due(5, 100, kCheckpointsT0 + 10ms));
  EXPECT_TRUE(c.holder_gone(3));  // task 1 has one copy left
  EXPECT_FALSE(c.holds_copy(3));
  EXPECT_TRUE(c.due(5, 100, kCheckpointsT0 + 10ms));
  c.begin(5, {}, kCheckpointsT0 + 10ms);
  c.acknowledge(0, 5, {1, 2});  // task 1's copy went to node 4, which dies unacknowledged
  EXPECT_FALSE(c.due(6, 100, kCheckpointsT0 + 20ms));
  EXPECT_TRUE(c.holder_gone(4));
  EXPECT_TRUE(c.due(6, 100, kCheckpointsT0 + 20ms));
}

TEST(JobCheckpoints, DisabledPolicyIsNeverDueUnlessForced) {
  JobCheckpoints c(1, CheckpointPolicy{0, 0ms}, kCheckpointsT0);
  EXPECT_FALSE(CheckpointPolicy({0, 0ms}).enabled());
  EXPECT_FALSE(c.due(3, 100, kCheckpointsT0 + 1h));
  c.force_next();
  EXPECT_TRUE(c.due(3, 100, kCheckpointsT0));
}

TEST(JobCheckpoints, CommitsWhenEveryTaskAcknowledged) {
  JobCheckpoints c(3, CheckpointPolicy{1, 0ms}, kCheckpointsT0);
  c.begin(4, {0.5, 2.0}, kCheckpointsT0);
  EXPECT_FALSE(c.acknowledge(0, 4, {1, 2}));
  EXPECT_FALSE(c.acknowledge(0, 4, {1, 2}));  // a duplicate ack counts once
  EXPECT_FALSE(c.acknowledge(2, 4, {3, 1}));
  EXPECT_FALSE(c.committed().has_value());
  EXPECT_TRUE(c.acknowledge(1, 4, {2, 3}));
  ASSERT_TRUE(c.committed().has_value());
  EXPECT_EQ(c.committed()->step, 4u);
  EXPECT_EQ(c.committed()->values, (std::vector<double>{0.5, 2.0}));
  EXPECT_EQ(c.committed()->copies[2].primary, 3u);
  EXPECT_TRUE(c.holds_copy(3));
  EXPECT_FALSE(c.holds_copy(4));
}

TEST(JobCheckpoints, ALostCopyIsRestoredFromTheOtherOne) {
  JobCheckpoints c(2, CheckpointPolicy{1, 0ms}, kCheckpointsT0);
  c.begin(4, {}, kCheckpointsT0);
  c.acknowledge(0, 4, {1, 2});
  c.acknowledge(1, 4, {2, 3});
  c.lose_copies(2);  // node 2 fenced itself: alive again, but empty
  EXPECT_FALSE(c.holds_copy(2));
  auto all_alive = [](std::uint32_t n) { return n != 0; };
  auto placement = c.restore_placement(all_alive);
  ASSERT_TRUE(placement);
  EXPECT_EQ(*placement, (std::vector<std::uint32_t>{1, 3}));
  c.lose_copies(3);
  auto none = c.restore_placement(all_alive);
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().find("task 1 at step 5 were on failed nodes 2 and 3"), std::string::npos)
      << none.error();
}

TEST(JobCheckpoints, AcksOfAStepNotBegunOrRolledBackAreIgnored) {
  JobCheckpoints c(1, CheckpointPolicy{1, 0ms}, kCheckpointsT0);
  EXPECT_FALSE(c.acknowledge(0, 7, {1, 2}));
  c.begin(7, {}, kCheckpointsT0);
  c.rolled_back();
  EXPECT_EQ(c.pending(), 0u);
  EXPECT_FALSE(c.acknowledge(0, 7, {1, 2}));
  EXPECT_FALSE(c.committed().has_value());
  EXPECT_TRUE(c.due(8, 100, kCheckpointsT0));  // forced: redundancy comes back at the next boundary
}

TEST(JobCheckpoints, ACommitDropsOlderPendingCheckpoints) {
  JobCheckpoints c(1, CheckpointPolicy{1, 0ms}, kCheckpointsT0);
  c.begin(3, {}, kCheckpointsT0);
  c.begin(4, {}, kCheckpointsT0);
  EXPECT_TRUE(c.acknowledge(0, 4, {1, 2}));
  EXPECT_EQ(c.pending(), 0u);
  EXPECT_FALSE(c.acknowledge(0, 3, {1, 2}));  // late: step 4 is newer
  EXPECT_EQ(c.committed()->step, 4u);
}

TEST(JobCheckpoints, RestoresOnThePrimaryElseTheBuddy) {
  JobCheckpoints c(3, CheckpointPolicy{1, 0ms}, kCheckpointsT0);
  c.begin(0, {}, kCheckpointsT0);
  c.acknowledge(0, 0, {1, 2});
  c.acknowledge(1, 0, {2, 3});
  c.acknowledge(2, 0, {3, 1});
  auto alive = [](std::uint32_t n) { return n != 2; };
  auto placement = c.restore_placement(alive);
  ASSERT_TRUE(placement) << placement.error();
  EXPECT_EQ(*placement, (std::vector<std::uint32_t>{1, 3, 3}));
}

TEST(JobCheckpoints, RestoreFailsNamingTheTaskWhenBothCopiesAreGone) {
  JobCheckpoints c(2, CheckpointPolicy{1, 0ms}, kCheckpointsT0);
  EXPECT_FALSE(c.restore_placement([](std::uint32_t) { return true; }));
  c.begin(0, {}, kCheckpointsT0);
  c.acknowledge(0, 0, {1, 2});
  c.acknowledge(1, 0, {2, 0});
  auto placement = c.restore_placement([](std::uint32_t n) { return n == 1; });
  ASSERT_FALSE(placement);
  EXPECT_EQ(placement.error(), "both copies of task 1 at step 1 were on failed nodes 2 and 0");
}

TEST(JobCheckpoints, ARestartedNodeRegainsTheCopiesItHeldAtTheCommittedStepOnly) {
  JobCheckpoints c(3, CheckpointPolicy{1, 0ms}, kCheckpointsT0);
  c.begin(4, {}, kCheckpointsT0);
  c.acknowledge(0, 4, {2, 4});
  c.acknowledge(1, 4, {4, 1});
  c.acknowledge(2, 4, {1, 3});
  c.lose_copies(2);  // nodes 2 and 4 died together: task 0 has no copy left
  c.lose_copies(4);
  auto live = [](std::uint32_t n) { return n == 1 || n == 2 || n == 3; };
  ASSERT_FALSE(c.restore_placement(live));
  EXPECT_EQ(c.regain_copies(2, 3, {0}), 0u) << "an older step's copy is of no use";
  EXPECT_EQ(c.regain_copies(3, 4, {0}), 0u) << "node 3 never held task 0";
  EXPECT_EQ(c.regain_copies(2, 4, {0, 7}), 1u);  // 7: no such task, ignored
  EXPECT_EQ(c.regain_copies(2, 4, {0}), 0u) << "regained once";
  EXPECT_TRUE(c.holds_copy(2));
  auto placement = c.restore_placement(live);
  ASSERT_TRUE(placement) << placement.error();
  EXPECT_EQ(*placement, (std::vector<std::uint32_t>{2, 1, 1}));
}

}  // namespace
}  // namespace drift
