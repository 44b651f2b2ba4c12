// Rollback recovery with real daemons and real SIGKILLs (docs/architecture.md §9): a job that loses a node
// hosting its tasks rolls back to its last committed checkpoint (or to its start when it has
// none) on the survivors and ends with the serial reference's exact checksum; the client hears of
// each recovery; at most one checkpoint interval of steps is done again. When the root itself
// dies, its deputy takes the job over and the client follows it there.
#include <gtest/gtest.h>
#include <signal.h>

#include <iostream>
#include <set>

#include <drift/application.h>
#include "ctl/job_client.h"
#include "ctl/migration_client.h"
#include "ctl/owner_client.h"
#include "ctl/status_query.h"
#include "tests/integration/cluster_test_fixture.h"
#include "tests/integration/owner_harness.h"
#include "tests/integration/poll.h"
#include "tests/integration/sanitized_build.h"

namespace drift::test {
namespace {

using namespace std::chrono_literals;

class RecoveryTest : public ClusterTest {
 protected:
  // A live node other than the root (1) hosting tasks of the running job, as the root's status
  // reports it (load indices come with heartbeats); 0 if none does.
  int find_victim(const std::set<int>& dead) {
    int victim = 0;
    poll_until(5s, 20ms, [&] {
      auto reply = ctl::query_status(connect_options(1), 2s);
      if (!reply) return false;
      for (const auto& n : reply->nodes) {
        const int id = static_cast<int>(n.member.node_id);
        if (id != 1 && !dead.count(id) && n.member.state == MemberState::kAlive &&
            n.load.task_count > 0) {
          victim = id;
        }
      }
      return victim != 0;
    });
    return victim;
  }

  struct Run {
    JobResult result;
    std::vector<JobNotice> notices;       // recoveries
    std::vector<JobNotice> root_changes;  // the client lost the root, found the new one
    std::vector<int> victims;
  };
  // Runs `spec` from node 1 and kills a task-hosting node when the job reports each of the
  // steps in `kill_at` (a later kill waits until the previous recovery was announced); with
  // `root`, the first kill is node 1, the job's root, and the client follows the job on. With
  // `sig` SIGTERM the "kill" is a clean leave.
  Run run_with_kills(const JobSpec& spec, std::vector<std::uint64_t> kill_at, bool root = false,
                     int sig = SIGKILL) {
    Run run;
    auto connection = connect(1);
    EXPECT_NE(connection, nullptr);
    if (!connection) return run;
    ctl::Reattach reattach{connect_options(1), {}};
    auto members = ctl::query_status(*connection, 2s);
    EXPECT_TRUE(members.is_ok()) << members.error();
    if (members) {
      for (const auto& n : members->nodes) reattach.members.push_back(n.member);
    }
    std::set<int> dead;
    auto end = ctl::run_job(
        *connection, spec,
        [&](const JobProgress& p) {
          if (run.victims.size() >= kill_at.size() || p.step < kill_at[run.victims.size()]) return;
          if (run.notices.size() < run.victims.size()) return;  // the last one is not over yet
          const int victim = root && run.victims.empty() ? 1 : find_victim(dead);
          ASSERT_NE(victim, 0) << "no node but the root reports tasks of the job";
          ASSERT_TRUE(cluster().kill(victim, sig).is_ok());
          dead.insert(victim);
          run.victims.push_back(victim);
          std::cout << "sent signal " << sig << " to node " << victim << " at step " << p.step
                    << "\n";
        },
        ctl::Clock::now() + 120s,
        [&](const JobNotice& n) {
          std::cout << "notice: " << n.text << "\n";
          if (n.kind == JobNoticeKind::kRecovered) run.notices.push_back(n);
          if (n.kind == JobNoticeKind::kRootChanged) run.root_changes.push_back(n);
        },
        &reattach);
    EXPECT_TRUE(end.is_ok()) << end.error();
    if (!end) return run;
    if (auto* failed = std::get_if<JobFailed>(&*end)) {
      ADD_FAILURE() << "the job failed: " << failed->reason;
      return run;
    }
    run.result = std::get<JobResult>(*end);
    return run;
  }

  void expect_recovered(const Run& run, const JobSpec& spec, std::size_t failures,
                        std::uint64_t interval) {
    ASSERT_EQ(run.victims.size(), failures) << "the job ended before every kill";
    EXPECT_EQ(run.result.checksum, serial_checksum(spec));
    EXPECT_EQ(run.result.recoveries, failures);
    ASSERT_EQ(run.notices.size(), failures);
    for (std::size_t i = 0; i < failures; ++i) {
      EXPECT_EQ(run.notices[i].node, static_cast<std::uint32_t>(run.victims[i]));
      EXPECT_EQ(run.notices[i].kind, JobNoticeKind::kRecovered);
      // A checkpoint begun but not yet acknowledged by every task when the node died does not
      // count, so one step more than the interval can be lost.
      if (interval > 0) {
        EXPECT_LE(run.notices[i].steps_recomputed, interval + 1);
      }
      std::cout << "recovery " << i + 1 << ": " << run.notices[i].recovery_s << " s, "
                << run.notices[i].steps_recomputed << " steps again\n";
    }
    for (int k = 1; k <= cluster().nodes(); ++k) {
      const bool killed =
          std::find(run.victims.begin(), run.victims.end(), k) != run.victims.end();
      if (!killed) {
        EXPECT_EQ(fate_of(k), "running") << "node " << k;
      }
    }
  }
};

JobSpec heat2d(std::uint64_t steps, std::uint64_t checkpoint_steps) {
  JobSpec spec = ctl::job_spec("heat2d", 12, steps, {{"size", "768x768"}});
  spec.runtime["checkpoint_steps"] = std::to_string(checkpoint_steps);
  spec.runtime["checkpoint_ms"] = "0";
  return spec;
}

// 6 tiles and 6 spare tasks; the root asks for a random split or merge after every step.
JobSpec heat2d_regrained(std::uint64_t steps, std::uint64_t checkpoint_steps) {
  JobSpec spec = heat2d(steps, checkpoint_steps);
  spec.params["spare"] = "6";
  spec.runtime["chaos_grain"] = "1";
  return spec;
}

TEST_F(RecoveryTest, KilledWorkerRollsBackToTheLastCheckpoint) {
  start_cluster(4, /*slot=*/3);
  wait_for_load_reports(1);
  const JobSpec spec = heat2d(400, 20);
  const Run run = run_with_kills(spec, {70});
  expect_recovered(run, spec, 1, 20);
  if (!run.notices.empty()) {
    EXPECT_GE(run.notices[0].step, 40u) << "no checkpoint was used";
  }
}

TEST_F(RecoveryTest, WithoutACheckpointTheJobStartsOver) {
  start_cluster(3, /*slot=*/3);
  wait_for_load_reports(1);
  // Long enough that the job is still running when the client has seen step 30 (it hears of
  // steps later than the tasks make them).
  const JobSpec spec = heat2d(1000, 0);
  const Run run = run_with_kills(spec, {30});
  expect_recovered(run, spec, 1, 0);
  if (!run.notices.empty()) {
    EXPECT_EQ(run.notices[0].step, 0u);
  }
}

TEST_F(RecoveryTest, ParticlesSurviveAKilledWorker) {
  start_cluster(4, /*slot=*/3);
  wait_for_load_reports(1);
  JobSpec spec = ctl::job_spec("particles", 12, 300, {{"cells", "96"}, {"particles", "60000"}});
  spec.runtime["checkpoint_steps"] = "15";
  spec.runtime["checkpoint_ms"] = "0";
  const Run run = run_with_kills(spec, {50});
  expect_recovered(run, spec, 1, 15);
}

TEST_F(RecoveryTest, SplitAndMergedTilesSurviveAKilledWorker) {
  start_cluster(4, /*slot=*/3);
  wait_for_load_reports(1);
  // The rollback returns to a checkpoint whose layout differs from the one at the failure.
  const JobSpec spec = heat2d_regrained(400, 20);
  const Run run = run_with_kills(spec, {70});
  expect_recovered(run, spec, 1, 20);
  EXPECT_GT(run.result.splits, 10u);
  EXPECT_GT(run.result.merges, 5u);
}

TEST_F(RecoveryTest, TheDeputyCarriesOnTheSplitsAndMergesOfAKilledRoot) {
  start_cluster(4, /*slot=*/3);
  wait_for_load_reports(1);
  const JobSpec spec = heat2d_regrained(400, 20);
  const Run run = run_with_kills(spec, {60}, /*root=*/true);
  ASSERT_EQ(run.victims, std::vector<int>{1});
  EXPECT_EQ(run.result.checksum, serial_checksum(spec));
  EXPECT_EQ(run.result.recoveries, 1u);
  // The new root took over the record's splits and merges and went on announcing them (the
  // chaos option travels in the spec).
  EXPECT_GT(run.result.splits, 10u);
}

TEST_F(RecoveryTest, KilledRootIsReplacedByItsDeputy) {
  start_cluster(4, /*slot=*/3);
  wait_for_load_reports(1);
  const JobSpec spec = heat2d(400, 20);
  const Run run = run_with_kills(spec, {60}, /*root=*/true);
  ASSERT_EQ(run.victims, std::vector<int>{1});
  EXPECT_EQ(run.result.checksum, serial_checksum(spec));
  EXPECT_EQ(run.result.recoveries, 1u);
  ASSERT_EQ(run.root_changes.size(), 2u) << "lost the root, then found the new one";
  EXPECT_EQ(run.root_changes[0].node, 0u);
  EXPECT_EQ(run.root_changes[1].node, 3u) << "the deputy is half way round the ring of 4";
  for (int k = 2; k <= 4; ++k) EXPECT_EQ(fate_of(k), "running") << "node " << k;
}

// SIGTERM (systemctl stop) is a clean leave: the node's tasks move away first and their root is
// told, so the job does not roll back; the daemon then exits on its own.
TEST_F(RecoveryTest, NodeLeavingOnSigtermMovesItsTasksWithoutARollback) {
  start_cluster(3, /*slot=*/3);
  wait_for_load_reports(1);
  const JobSpec spec = heat2d(1500, 20);
  const Run run = run_with_kills(spec, {60}, /*root=*/false, SIGTERM);
  ASSERT_EQ(run.victims.size(), 1u);
  EXPECT_EQ(run.result.checksum, serial_checksum(spec));
  EXPECT_EQ(run.result.recoveries, 0u);
  EXPECT_TRUE(run.notices.empty());
  const int left = run.victims[0];
  std::string fate;  // fate_of() reaps the daemon: asked until it is no longer running
  EXPECT_TRUE(poll_until(25s, 50ms, [&] { return (fate = fate_of(left)) != "running"; }));
  EXPECT_EQ(fate, "exited with status 0");
  EXPECT_NE(log_of(left).find("leaving the cluster"), std::string::npos);
  // The members heard it leave from the node itself, not from their failure detectors.
  const std::string root_log = log_of(1);
  EXPECT_NE(root_log.find("node " + std::to_string(left) + " leaves the cluster (it says so)"),
            std::string::npos);
  EXPECT_EQ(root_log.find("node " + std::to_string(left) + " node" + std::to_string(left) +
                          " (127.0.0.1:" + std::to_string(base_port_for(3) + left - 1) +
                          ") suspect"),
            std::string::npos)
      << "node 1 suspected the node that left";
}

// A member whose tasks of a job have all moved on (its owner reclaimed it) still counts among the
// job's nodes at the root: on SIGTERM it tells the root it leaves, so the job does not roll back
// as if it had died (a rolling upgrade met this: the balancer had just emptied the host).
TEST_F(RecoveryTest, AMemberWithNoTaskLeftLeavesWithoutARollback) {
  start_cluster(3, /*slot=*/3);
  wait_for_load_reports(1);
  const JobSpec spec = heat2d(1500, 20);
  auto connection = connect(1);
  ASSERT_NE(connection, nullptr);
  int emptied = 0;
  std::vector<JobNotice> recoveries;
  auto end = ctl::run_job(
      *connection, spec,
      [&](const JobProgress& p) {
        if (emptied != 0 || p.step < 60) return;
        emptied = find_victim({});
        ASSERT_NE(emptied, 0) << "no node but the root reports tasks of the job";
        auto reclaimed = ctl::request_owner_action(connect_options(emptied), OwnerAction::kReclaim,
                                                   ctl::Clock::now() + 5s);
        ASSERT_TRUE(reclaimed.is_ok()) << reclaimed.error();
        ASSERT_TRUE(wait_for_owner_state(connect_options(emptied),
                                         static_cast<std::uint32_t>(emptied),
                                         OwnerState::kReclaimed, 30s, /*empty=*/true))
            << "node " << emptied << " did not empty";
        ASSERT_TRUE(cluster().kill(emptied, SIGTERM).is_ok());
        std::cout << "node " << emptied << " emptied, then sent SIGTERM at step " << p.step << "\n";
      },
      ctl::Clock::now() + 120s,
      [&](const JobNotice& n) {
        std::cout << "notice: " << n.text << "\n";
        if (n.kind == JobNoticeKind::kRecovered) recoveries.push_back(n);
      });
  ASSERT_TRUE(end.is_ok()) << end.error();
  ASSERT_TRUE(std::holds_alternative<JobResult>(*end)) << "the job failed";
  ASSERT_NE(emptied, 0) << "the job ended before step 60";
  const auto& result = std::get<JobResult>(*end);
  EXPECT_EQ(result.checksum, serial_checksum(spec));
  EXPECT_EQ(result.recoveries, 0u);
  EXPECT_TRUE(recoveries.empty()) << recoveries.front().text;
  std::string fate;
  EXPECT_TRUE(poll_until(25s, 50ms, [&] { return (fate = fate_of(emptied)) != "running"; }));
  EXPECT_EQ(fate, "exited with status 0");
  EXPECT_NE(log_of(emptied).find("every job's root told"), std::string::npos);
  EXPECT_NE(log_of(1).find("node " + std::to_string(emptied) + " left it cleanly"),
            std::string::npos);
}

// The job's root leaving hands the job to its deputy at once (no failure detection to wait for):
// the deputy rolls it back to the last checkpoint and the client follows it there.
TEST_F(RecoveryTest, RootLeavingOnSigtermHandsItsJobToTheDeputy) {
  start_cluster(4, /*slot=*/3);
  wait_for_load_reports(1);
  const JobSpec spec = heat2d(1500, 20);
  const Run run = run_with_kills(spec, {60}, /*root=*/true, SIGTERM);
  ASSERT_EQ(run.victims, std::vector<int>{1});
  EXPECT_EQ(run.result.checksum, serial_checksum(spec));
  EXPECT_EQ(run.result.recoveries, 1u);
  ASSERT_EQ(run.notices.size(), 1u);
  EXPECT_NE(run.notices[0].text.find("left the cluster"), std::string::npos) << run.notices[0].text;
  EXPECT_LE(run.notices[0].steps_recomputed, 21u);
  ASSERT_EQ(run.root_changes.size(), 2u) << "lost the root, then found the new one";
  EXPECT_EQ(run.root_changes[1].node, 3u) << "the deputy is half way round the ring of 4";
  std::string fate;  // fate_of() reaps the daemon: asked until it is no longer running
  EXPECT_TRUE(poll_until(25s, 50ms, [&] { return (fate = fate_of(1)) != "running"; }));
  EXPECT_EQ(fate, "exited with status 0");
  const std::string log = log_of(1);
  EXPECT_NE(log.find("handing 1 job(s) rooted here"), std::string::npos);
  EXPECT_NE(log.find("every job's root told"), std::string::npos) << "the deputy did not answer";
  for (int k = 2; k <= 4; ++k) EXPECT_EQ(fate_of(k), "running") << "node " << k;
}

// Members that restart come back as new incarnations, which the job's root may meet before the
// other members have: a job placed on them at once must not lose the first halo messages other
// nodes send them (held until those nodes hear of the new incarnation) and stall until its
// watchdog rolls it back.
TEST_F(RecoveryTest, AJobPlacedOnMembersJustBackDoesNotStall) {
  start_cluster(4, /*slot=*/3);
  wait_for_load_reports(1);
  ASSERT_TRUE(cluster().kill(3, SIGKILL).is_ok());
  ASSERT_TRUE(cluster().kill(4, SIGTERM).is_ok());
  const auto states_seen_by_1 = [&](MemberState wanted) {
    auto reply = ctl::query_status(connect_options(1), 2s);
    if (!reply) return false;
    int n = 0;
    for (const auto& node : reply->nodes) {
      const auto id = node.member.node_id;
      n += (id == 3 || id == 4) && node.member.state == wanted;
    }
    return n == 2;
  };
  ASSERT_TRUE(poll_until(10s, 20ms, [&] { return states_seen_by_1(MemberState::kDead); }));
  // Both at once, not waiting for either: the job starts as soon as node 1 has met both.
  ASSERT_TRUE(cluster().restart(3, /*wait_ready=*/false).is_ok());
  ASSERT_TRUE(cluster().restart(4, /*wait_ready=*/false).is_ok());
  ASSERT_TRUE(poll_until(10s, 10ms, [&] { return states_seen_by_1(MemberState::kAlive); }));
  JobSpec spec = heat2d(300, 0);
  spec.runtime["placement"] = "even";
  auto connection = connect(1);
  ASSERT_NE(connection, nullptr);
  auto end = ctl::run_job(*connection, spec, {}, ctl::Clock::now() + 60s);
  ASSERT_TRUE(end.is_ok()) << end.error();
  const auto* result = std::get_if<JobResult>(&*end);
  ASSERT_NE(result, nullptr) << std::get<JobFailed>(*end).reason;
  EXPECT_EQ(result->checksum, serial_checksum(spec));
  // A stall would show as a rollback: the job's watchdog rolls a job back after 30 s without
  // progress.
  EXPECT_EQ(result->recoveries, 0u) << "the job stalled and was rolled back";
}

// A member that restarts after its job's root handed the job to the deputy heard of no rollback
// naming the new root: a task moved to it must still report to the new root (the migration
// offer says who it is), or the job stalls until its watchdog.
TEST_F(RecoveryTest, ATaskMovedToAMemberBackAfterTheRootLeftReportsToTheNewRoot) {
  start_cluster(4, /*slot=*/3);
  wait_for_load_reports(1);
  // Enough steps that the move lands before the end (near step 100); under ThreadSanitizer a step
  // takes ~40 ms here, and 4000 of them did not fit in the 120 s below.
  const JobSpec spec = heat2d(kSanitizedBuild ? 1500 : 4000, 20);
  auto connection = connect(1);
  ASSERT_NE(connection, nullptr);
  ctl::Reattach reattach{connect_options(1), {}};
  auto members = ctl::query_status(*connection, 2s);
  ASSERT_TRUE(members.is_ok()) << members.error();
  for (const auto& n : members->nodes) reattach.members.push_back(n.member);
  enum Phase { kRunning, kRootLeft, kNewRoot, kMoved } phase = kRunning;
  std::string problem;
  auto end = ctl::run_job(
      *connection, spec,
      [&](const JobProgress& p) {
        if (phase == kRunning && p.step >= 60) {
          if (!cluster().kill(1, SIGTERM)) problem = "could not signal node 1";
          phase = kRootLeft;
        } else if (phase == kNewRoot) {
          phase = kMoved;
          std::string fate;
          if (!poll_until(10s, 20ms, [&] { return (fate = fate_of(1)) != "running"; })) {
            problem = "node 1 did not leave";
            return;
          }
          if (Status st = cluster().restart(1); !st) {
            problem = "restart: " + st.message();
            return;
          }
          // Every member, the task's host (node 4 or another) too, must know node 1 is back.
          const bool seen = poll_until(10s, 20ms, [&] {
            for (int k = 2; k <= 4; ++k) {
              auto reply = ctl::query_status(connect_options(k), 2s);
              if (!reply) return false;
              bool alive = false;
              for (const auto& n : reply->nodes) {
                alive |= n.member.node_id == 1 && n.member.state == MemberState::kAlive;
              }
              if (!alive) return false;
            }
            return true;
          });
          if (!seen) {
            problem = "nodes 2-4 did not all see node 1 back";
            return;
          }
          auto to_root = connect(3);
          if (!to_root) {
            problem = "cannot connect to node 3";
            return;
          }
          auto report = ctl::request_migration(*to_root, MigrateRequest{TaskId{p.job, 0}, 1},
                                               ctl::Clock::now() + 20s);
          if (!report || !report->ok) {
            problem = "the move to node 1 failed: " + (report ? report->reason : report.error());
          }
        }
      },
      ctl::Clock::now() + 120s,
      [&](const JobNotice& n) {
        std::cout << "notice: " << n.text << "\n";
        if (n.kind == JobNoticeKind::kRootChanged && n.node == 3 && phase == kRootLeft) {
          phase = kNewRoot;
        }
      },
      &reattach);
  EXPECT_EQ(problem, "");
  EXPECT_EQ(phase, kMoved) << "the job ended before a task was moved to the restarted node";
  ASSERT_TRUE(end.is_ok()) << end.error();
  const auto* result = std::get_if<JobResult>(&*end);
  ASSERT_NE(result, nullptr) << std::get<JobFailed>(*end).reason;
  EXPECT_EQ(result->checksum, serial_checksum(spec));
  EXPECT_EQ(result->recoveries, 1u)
      << "only the hand-over rolls back; a stall would be another (the watchdog's, after 30 s)";
}

TEST_F(RecoveryTest, TwoFailuresInARow) {
  start_cluster(5, /*slot=*/3);
  wait_for_load_reports(1);
  const JobSpec spec = heat2d(500, 20);
  const Run run = run_with_kills(spec, {50, 150});
  expect_recovered(run, spec, 2, 20);
}

}  // namespace
}  // namespace drift::test
