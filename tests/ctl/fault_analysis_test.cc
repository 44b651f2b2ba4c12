// fault_analysis: which suspicions and deaths a fault run counts as false. A killed process's
// identities are gone for good, so their death is the kill's detection whenever it is shown; a
// restarted process's new identity shown dead while nothing hit it is a false death.
#include "ctl/fault_analysis.h"

#include <gtest/gtest.h>

#include "ctl/fault_scenario.h"

namespace drift::ctl {
namespace {

constexpr std::uint64_t kOld = 1000;  // node 4's identity before the kill
constexpr std::uint64_t kNew = 2000;  // its restarted process's

class FaultAnalysisTest : public ::testing::Test {
 protected:
  FaultAnalysisTest() {
    record_.scenario = &scenario_;
    InjectedFault kill;
    kill.text = "at 2s kill 4 for 1s";
    kill.kind = FaultKind::kKill;
    kill.nodes = {4};
    kill.at_s = 2.0;
    kill.undone_s = 3.0;
    record_.faults.push_back(kill);
    for (int observer : {1, 2}) see(0.5, observer, MemberState::kAlive, kOld);
  }

  void see(double t, int observer, MemberState state, std::uint64_t incarnation) {
    record_.sightings.push_back({t, observer, 4, state, incarnation});
  }

  FaultScenario scenario_;
  FaultRunRecord record_;
};

TEST_F(FaultAnalysisTest, TheKilledIdentityDeclaredDeadAfterTheRestartsGraceIsNoFalseDeath) {
  // Stretched by its poor health score, the old identity's death comes 4.3 s after the kill:
  // after the restart (3 s) and the grace that follows it (kGraceS).
  const double late = 3.0 + kGraceS + 0.3;
  see(3.1, 1, MemberState::kSuspect, kOld);
  see(late, 1, MemberState::kDead, kOld);
  see(late + 0.05, 2, MemberState::kDead, kOld);
  see(late + 0.5, 1, MemberState::kAlive, kNew);
  const FaultAnalysis a = analyse_fault_run(record_);
  EXPECT_TRUE(a.false_deaths.empty());
  EXPECT_TRUE(a.false_suspicions.empty());
  ASSERT_EQ(a.faults.size(), 1u);
  ASSERT_TRUE(a.faults[0].detected_s.has_value()) << a.faults[0].note;
  EXPECT_NEAR(*a.faults[0].detected_s, late - 2.0, 1e-9);  // the first survivor to show it
}

TEST_F(FaultAnalysisTest, TheRestartedIdentityDeclaredDeadIsAFalseDeath) {
  see(3.6, 1, MemberState::kAlive, kNew);
  see(8.0, 1, MemberState::kSuspect, kNew);
  see(8.4, 1, MemberState::kDead, kNew);
  const FaultAnalysis a = analyse_fault_run(record_);
  ASSERT_EQ(a.false_deaths.size(), 1u);
  EXPECT_EQ(a.false_deaths[0].t, 8.4);
  EXPECT_EQ(a.false_suspicions.size(), 1u);
  EXPECT_FALSE(a.faults[0].detected_s.has_value());
  EXPECT_EQ(a.faults[0].note, "not declared dead");
}

TEST_F(FaultAnalysisTest, APausedIdentityDeclaredDeadAfterItsGraceIsAFalseDeath) {
  // Paused, not killed: the process came back, so its identity's death after the grace is wrong.
  record_.faults[0].kind = FaultKind::kStop;
  see(3.0 + kGraceS + 1.0, 1, MemberState::kDead, kOld);
  const FaultAnalysis a = analyse_fault_run(record_);
  EXPECT_EQ(a.false_deaths.size(), 1u);
}

}  // namespace
}  // namespace drift::ctl
