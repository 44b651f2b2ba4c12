// The owner-reclaim state machine (node/owner/owner_policy.h), driven with injected time and readings.
#include "node/owner/owner_policy.h"

#include <gtest/gtest.h>

namespace drift {
namespace {

constexpr double kIdle = 1e9;  // nobody touched anything for ages

OwnerPolicyParams desktop() {
  OwnerPolicyParams p;  // HTCondor-like defaults, shortened so the numbers read easily
  p.start_idle_s = 100;
  p.start_load = 0.3;
  p.suspend_idle_s = 10;
  p.suspend_load = 0.5;
  p.suspend_load_s = 20;
  p.continue_idle_s = 50;
  p.max_suspend_s = 60;
  return p;
}

OwnerObservation at(double now, double idle = kIdle, double load = 0, std::uint32_t tasks = 4) {
  return {now, idle, load, tasks};
}

TEST(OwnerPolicyTest, AnIdleMachineStartsAvailableAndStays) {
  OwnerPolicy p(desktop());
  EXPECT_EQ(p.step(at(0)), OwnerState::kAvailable);
  EXPECT_EQ(p.step(at(1, 11, 0.49)), OwnerState::kAvailable);
}

TEST(OwnerPolicyTest, AMachineWhoseOwnerIsActiveAtStartBeginsReclaimed) {
  OwnerPolicy p(desktop());
  EXPECT_EQ(p.step(at(0, 50)), OwnerState::kReclaimed);  // idle 50 < start_idle 100
  EXPECT_EQ(p.step(at(49, 99)), OwnerState::kReclaimed);
  EXPECT_EQ(p.step(at(50, 100)), OwnerState::kAvailable);
}

TEST(OwnerPolicyTest, KeyboardActivitySuspendsAndIdleContinues) {
  OwnerPolicy p(desktop());
  p.step(at(0));
  EXPECT_EQ(p.step(at(5, 0.5)), OwnerState::kSuspended);
  EXPECT_EQ(p.since_s(), 5);
  EXPECT_NE(p.why().find("owner input"), std::string::npos) << p.why();
  EXPECT_EQ(p.step(at(30, 25)), OwnerState::kSuspended);  // idle 25 < continue_idle 50
  EXPECT_EQ(p.step(at(55, 50)), OwnerState::kAvailable);  // back before max_suspend (60)
}

TEST(OwnerPolicyTest, SuspendedLongerThanMaxSuspendVacatesThenReclaimedWhenEmpty) {
  OwnerPolicy p(desktop());
  p.step(at(0));
  p.step(at(10, 1));
  EXPECT_EQ(p.step(at(70, 1)), OwnerState::kSuspended);  // exactly max_suspend: not longer
  EXPECT_EQ(p.step(at(71, 1)), OwnerState::kDraining);
  EXPECT_EQ(p.step(at(72, 2, 0, 1)), OwnerState::kDraining);
  EXPECT_EQ(p.step(at(73, 3, 0, 0)), OwnerState::kReclaimed);
  // RELEASE needs start_idle, not continue_idle.
  EXPECT_EQ(p.step(at(200, 99)), OwnerState::kReclaimed);
  EXPECT_EQ(p.step(at(201, 100)), OwnerState::kAvailable);
}

TEST(OwnerPolicyTest, ImmediatePolicyDrainsOnActivity) {
  OwnerPolicyParams params = desktop();
  params.kind = OwnerPolicyKind::kImmediate;
  OwnerPolicy p(params);
  p.step(at(0));
  EXPECT_EQ(p.step(at(1, 0)), OwnerState::kDraining);
}

TEST(OwnerPolicyTest, ExternalLoadSuspendsOnlyAfterItStayedHighLongEnough) {
  OwnerPolicy p(desktop());
  p.step(at(0));
  EXPECT_EQ(p.step(at(1, kIdle, 0.6)), OwnerState::kAvailable);
  EXPECT_EQ(p.step(at(20, kIdle, 0.6)), OwnerState::kAvailable);  // 19 s < 20 s
  EXPECT_EQ(p.step(at(21, kIdle, 0.4)), OwnerState::kAvailable);  // dipped: the clock restarts
  EXPECT_EQ(p.step(at(22, kIdle, 0.5)), OwnerState::kAvailable);
  EXPECT_EQ(p.step(at(42, kIdle, 0.5)), OwnerState::kSuspended);
  EXPECT_NE(p.why().find("external load"), std::string::npos) << p.why();
  // Idle keyboard but load still above start_load: no CONTINUE.
  EXPECT_EQ(p.step(at(50, kIdle, 0.35)), OwnerState::kSuspended);
  EXPECT_EQ(p.step(at(51, kIdle, 0.3)), OwnerState::kAvailable);
}

TEST(OwnerPolicyTest, ReclaimHoldsTheNodeUntilRelease) {
  OwnerPolicy p(desktop());
  p.step(at(0));
  EXPECT_EQ(p.reclaim(1, 3), OwnerState::kDraining);
  EXPECT_TRUE(p.held());
  EXPECT_EQ(p.step(at(2, kIdle, 0, 0)), OwnerState::kReclaimed);
  EXPECT_EQ(p.step(at(1000)), OwnerState::kReclaimed);  // START holds, but the owner said so
  EXPECT_EQ(p.release(1001), OwnerState::kAvailable);
  EXPECT_FALSE(p.held());
  EXPECT_EQ(p.why(), "released by command");
  EXPECT_EQ(p.step(at(1002, 1)), OwnerState::kSuspended);  // later activity counts again
}

TEST(OwnerPolicyTest, ReclaimOfAnEmptyNodeIsReclaimedAtOnce) {
  OwnerPolicy p(desktop());
  EXPECT_EQ(p.reclaim(0, 0), OwnerState::kReclaimed);
  EXPECT_EQ(p.step(at(1)), OwnerState::kReclaimed);  // no start-up check after a command
}

TEST(OwnerPolicyTest, ReleaseOverridesTheStartUpCheckAndTheLoadClock) {
  OwnerPolicy p(desktop());
  p.step(at(0, kIdle, 0.9));
  EXPECT_EQ(p.state(), OwnerState::kReclaimed);  // load 0.9 > start_load
  EXPECT_EQ(p.release(1), OwnerState::kAvailable);
  EXPECT_EQ(p.step(at(2, kIdle, 0.9)), OwnerState::kAvailable);  // the load clock starts now
  EXPECT_EQ(p.step(at(22, kIdle, 0.9)), OwnerState::kSuspended);
}

TEST(OwnerPolicyTest, NeverPolicyIgnoresTheDetectorButObeysCommands) {
  OwnerPolicyParams params = desktop();
  params.kind = OwnerPolicyKind::kNever;
  OwnerPolicy p(params);
  EXPECT_EQ(p.step(at(0, 0, 5)), OwnerState::kAvailable);
  EXPECT_EQ(p.step(at(100, 0, 5)), OwnerState::kAvailable);
  EXPECT_EQ(p.reclaim(101, 2), OwnerState::kDraining);
  EXPECT_EQ(p.step(at(102, kIdle, 0, 0)), OwnerState::kReclaimed);
  EXPECT_EQ(p.release(103), OwnerState::kAvailable);
}

TEST(OwnerPolicyTest, ActivityOnAnEmptyNodeGoesStraightToReclaimedUnderImmediate) {
  OwnerPolicyParams params = desktop();
  params.kind = OwnerPolicyKind::kImmediate;
  OwnerPolicy p(params);
  p.step(at(0, kIdle, 0, 0));
  EXPECT_EQ(p.step(at(1, 0, 0, 0)), OwnerState::kReclaimed);
}

}  // namespace
}  // namespace drift
