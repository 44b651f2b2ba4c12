// A daemon paused with SIGSTOP (issue 5): paused for less than the failure detector's patience,
// nobody is declared dead; paused long enough to be suspected but not declared dead, it refutes
// with a higher incarnation when it resumes; paused longer than the patience, it is declared dead,
// and when it resumes it fences (its tasks are stopped and dropped) and rejoins at a higher
// incarnation. The pause durations are the faults themselves; everything else is polled.
#include <gtest/gtest.h>
#include <signal.h>

#include <iostream>
#include <thread>

#include "ctl/client_connection.h"
#include "ctl/job_client.h"
#include "tests/integration/cluster_test_fixture.h"
#include "tests/integration/membership_view.h"
#include "tests/integration/poll.h"

namespace drift::test {
namespace {

using namespace std::chrono_literals;

constexpr int kPauseNodes = 4;
constexpr int kPauseVictim = 3;

class PauseTest : public ClusterTest {
 protected:
  // Starts the cluster with `args` added to every daemon's command line.
  void start(int slot, std::vector<std::string> args = {}) {
    ctl::LocalClusterOptions options;
    options.driftd = bin_dir() / "driftd";
    options.stop_with_parent = true;
    options.extra_args = std::move(args);
    cluster_ = std::make_unique<ctl::LocalCluster>(dir_, options);
    start_cluster(kPauseNodes, slot);
    view_ = std::make_unique<MembershipView>(cluster());
  }

  std::uint64_t incarnation_of_victim() {
    auto self = view_->entry(kPauseVictim, kPauseVictim);
    return self ? self->member.incarnation : 0;
  }

  // Stops the victim for `how_long`, then lets it go on.
  void pause_victim(std::chrono::milliseconds how_long) {
    ASSERT_TRUE(cluster().kill(kPauseVictim, SIGSTOP).is_ok());
    std::this_thread::sleep_for(how_long);  // the fault's duration, not a synchronisation
    ASSERT_TRUE(cluster().kill(kPauseVictim, SIGCONT).is_ok());
  }

  // True once every other node lists the victim in `state` at an incarnation above `above`.
  bool others_see_victim(MemberState state, std::uint64_t above) {
    for (int k = 1; k <= kPauseNodes; ++k) {
      if (k == kPauseVictim) continue;
      auto e = view_->entry(k, kPauseVictim);
      if (!e || e->member.state != state || e->member.incarnation <= above) return false;
    }
    return true;
  }

  std::unique_ptr<MembershipView> view_;
};

TEST_F(PauseTest, AShortPauseIsNoDeath) {
  start(/*slot=*/45);
  wait_for_load_reports(1);
  pause_victim(300ms);
  // Watch for well over the detector's patience (about 0.9 s with conf/local.conf) after resuming.
  const bool death = poll_until(2500ms, 100ms, [&] { return view_->anyone_reports_a_death(); });
  EXPECT_FALSE(death) << "a 300 ms pause made some node declare a death";
  for (int k = 1; k <= kPauseNodes; ++k) EXPECT_EQ(view_->deaths_logged(k), 0) << "node " << k;
  EXPECT_EQ(view_->log_lines(kPauseVictim, "FENCED"), 0);
}

TEST_F(PauseTest, ASuspectRefutesWithAHigherIncarnation) {
  // Suspected after about 0.5 s of silence, declared dead only after 5 s more: a 1.5 s pause
  // is certainly suspected and certainly not a death. No joiner's grace (first_heartbeat_ms):
  // the cluster is young, and a member whose detector has yet to learn its rhythm is given 3 s.
  start(/*slot=*/46,
        {"--membership.suspect_timeout_ms=5000", "--membership.first_heartbeat_ms=0"});
  wait_for_load_reports(1);
  const std::uint64_t before = incarnation_of_victim();
  ASSERT_NE(before, 0u);
  pause_victim(1500ms);
  const bool refuted = poll_until(4000ms, 50ms, [&] {
    return view_->log_lines(kPauseVictim, "refuted a rumour that we are suspect") > 0 &&
           others_see_victim(MemberState::kAlive, before);
  });
  EXPECT_TRUE(refuted) << "the victim did not refute its suspicion, or others did not accept it";
  EXPECT_GT(incarnation_of_victim(), before);
  EXPECT_FALSE(view_->anyone_reports_a_death());
  EXPECT_EQ(view_->log_lines(kPauseVictim, "FENCED"), 0);
  for (int k = 1; k <= kPauseNodes; ++k) EXPECT_EQ(view_->deaths_logged(k), 0) << "node " << k;
}

TEST_F(PauseTest, ALongPauseIsDeathThenTheNodeFencesAndRejoins) {
  start(/*slot=*/47);
  wait_for_load_reports(1);
  // A long job, so that the victim hosts tasks when it is stopped (we never read its progress).
  auto client = connect(1);
  ASSERT_NE(client, nullptr);
  ASSERT_TRUE(
      client->send(RunRequest{ctl::job_spec("heat2d", 16, 1000000, {{"size", "256x256"}})})
          .is_ok());
  const bool hosting = poll_until(10s, 50ms, [&] {
    auto self = view_->entry(kPauseVictim, kPauseVictim);
    return self && self->load.task_count > 0;
  });
  ASSERT_TRUE(hosting) << "the victim never hosted tasks of the job";
  const std::uint64_t before = incarnation_of_victim();

  ASSERT_TRUE(cluster().kill(kPauseVictim, SIGSTOP).is_ok());
  const auto stopped_at = std::chrono::steady_clock::now();
  const bool declared = poll_until(6s, 50ms, [&] {
    return others_see_victim(MemberState::kDead, before - 1);
  });
  const double after_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - stopped_at).count();
  ASSERT_TRUE(cluster().kill(kPauseVictim, SIGCONT).is_ok());
  ASSERT_TRUE(declared) << "the stopped victim was not declared dead by every other node";
  std::cout << "stopped node " << kPauseVictim << " declared dead by all others within " << after_s
            << " s\n";

  const bool rejoined = poll_until(8s, 50ms, [&] {
    return view_->log_lines(kPauseVictim, "FENCED") > 0 &&
           others_see_victim(MemberState::kAlive, before);
  });
  ASSERT_TRUE(rejoined) << "the victim did not fence and rejoin at a higher incarnation";
  auto self = view_->entry(kPauseVictim, kPauseVictim);
  ASSERT_TRUE(self.has_value());
  EXPECT_EQ(self->load.task_count, 0u) << "the fenced node still hosts tasks";
  EXPECT_GT(self->member.incarnation, before);
  EXPECT_EQ(view_->log_lines(kPauseVictim, "FENCED"), 1);
  EXPECT_EQ(view_->log_lines(kPauseVictim, "stopped 0 task(s)"), 0) << "it fenced no tasks";
  // Nobody else was declared dead: not by the others, not by the victim for its own pause.
  for (int k = 1; k <= kPauseNodes; ++k) {
    if (k != kPauseVictim) {
      EXPECT_EQ(view_->deaths_logged(k), 0) << "node " << k;
    }
  }
  // It stays alive: every node lists every member alive a while later.
  const bool settled = poll_until(5s, 100ms, [&] {
    for (int k = 1; k <= kPauseNodes; ++k) {
      auto reply = view_->status(k, 1000ms);
      if (!reply || static_cast<int>(reply->nodes.size()) != kPauseNodes) return false;
      for (const NodeStatus& n : reply->nodes) {
        if (n.member.state != MemberState::kAlive) return false;
      }
    }
    return true;
  });
  EXPECT_TRUE(settled) << "the cluster does not agree that all " << kPauseNodes
                       << " nodes are alive";
}

}  // namespace
}  // namespace drift::test
