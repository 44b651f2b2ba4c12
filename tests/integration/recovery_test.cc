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
#include "ctl/status_query.h"
#include "tests/integration/cluster_test_fixture.h"
#include "tests/integration/poll.h"

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
  // `root`, the first kill is node 1, the job's root, and the client follows the job on.
  Run run_with_kills(const JobSpec& spec, std::vector<std::uint64_t> kill_at, bool root = false) {
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
          ASSERT_TRUE(cluster().kill(victim, SIGKILL).is_ok());
          dead.insert(victim);
          run.victims.push_back(victim);
          std::cout << "killed node " << victim << " at step " << p.step << "\n";
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
  const JobSpec spec = heat2d(200, 0);
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

TEST_F(RecoveryTest, TwoFailuresInARow) {
  start_cluster(5, /*slot=*/3);
  wait_for_load_reports(1);
  const JobSpec spec = heat2d(500, 20);
  const Run run = run_with_kills(spec, {50, 150});
  expect_recovered(run, spec, 2, 20);
}

}  // namespace
}  // namespace drift::test
