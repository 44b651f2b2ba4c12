// The root's job queue (docs/architecture.md §6.7), as people meet it through driftctl: a job
// that does not fit yet — every node reclaimed by its owner, jobs.max_running jobs already
// running, its memory above what the nodes have free — waits instead of failing, says why, and
// starts once it fits (a node released); a queued job can be cancelled by its owner; a finished
// job's kept result goes with `result --forget`.
#include <gtest/gtest.h>

#include <fstream>

#include <signal.h>

#include "ctl/owner_client.h"
#include "ctl/status_query.h"
#include "tests/integration/owner_harness.h"
#include "tests/integration/people_fixture.h"

namespace drift::test {
namespace {

using namespace std::chrono_literals;

constexpr int kJobQueueSlot = 50;
const std::string kJobQueueJob = "heat2d --tasks 6 --steps 400 --size 96x96";

class JobQueueTest : public PeopleTest {
 protected:
  // The daemons' usual config with `extra` appended (e.g. a [jobs] section).
  void start_with(int nodes, const std::string& extra) {
    const auto config = dir_ / "queue.conf";
    {
      std::ifstream in(base_config());
      std::ofstream out(config, std::ios::trunc);
      out << in.rdbuf() << "\n" << extra << "\n";
    }
    const Status s = cluster_->up(nodes, base_port_for(kJobQueueSlot), config);
    ASSERT_TRUE(s.is_ok()) << s.message();
  }
  // Node k's owner acts; waits until node `seen_by` (a root) sees the new state.
  void owner(int k, OwnerAction action, OwnerState state, int seen_by = 1) {
    auto reply = ctl::request_owner_action(connect_options(k), action, ctl::Clock::now() + 10s);
    ASSERT_TRUE(reply.is_ok()) << reply.error();
    ASSERT_TRUE(wait_for_owner_state(connect_options(k), static_cast<std::uint32_t>(k), state,
                                     10s))
        << "node " << k << " is not " << to_string(state);
    // The root places jobs by what the heartbeats told it.
    ASSERT_TRUE(poll_until(10s, 50ms, [&] {
      auto reply = ctl::query_status(connect_options(seen_by), 2s);
      if (!reply) return false;
      const NodeStatus* n = ctl::find_node(*reply, static_cast<std::uint32_t>(k));
      return n && n->load.owner == state;
    })) << "node " << seen_by << " does not see node " << k << " " << to_string(state);
  }
};

TEST_F(JobQueueTest, AJobWithNoAvailableNodeWaitsAndStartsWhenANodeIsReleased) {
  ASSERT_NO_FATAL_FAILURE(start_with(2, ""));
  const std::string alice = make_token("alice", "user");
  const auto serial = driftctl("run " + kJobQueueJob + " --serial");
  ASSERT_EQ(serial.exit_code, 0) << serial.out;
  for (int k : {1, 2}) ASSERT_NO_FATAL_FAILURE(owner(k, OwnerAction::kReclaim, OwnerState::kReclaimed));

  const auto submitted = as(alice, "submit " + kJobQueueJob + " --name evening");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.out;
  EXPECT_NE(submitted.out.find("queued: no live, available node"), std::string::npos)
      << submitted.out;
  const std::string id = job_id_in(submitted.out);
  ASSERT_FALSE(id.empty()) << submitted.out;
  EXPECT_NE(job_json(alice, id).find("\"state\":\"queued\""), std::string::npos)
      << job_json(alice, id);
  const auto listed = as(alice, "jobs");
  EXPECT_NE(listed.out.find(id + " no live, available node"), std::string::npos) << listed.out;
  const auto early = as(alice, "result " + id);
  EXPECT_EQ(early.exit_code, 1) << early.out;
  EXPECT_NE(early.out.find("is queued"), std::string::npos) << early.out;

  // The evening: node 2's owner goes home.
  ASSERT_NO_FATAL_FAILURE(owner(2, OwnerAction::kRelease, OwnerState::kAvailable));
  ASSERT_TRUE(wait_for_state(alice, id, "done", 60s)) << as(alice, "jobs --all").out;
  expect_logged("leaves the queue");
  EXPECT_NE(job_json(alice, id).find("\"nodes\":[2]"), std::string::npos) << job_json(alice, id);
  const auto result = as(alice, "result " + id + " --forget");
  EXPECT_EQ(result.exit_code, 0) << result.out;
  EXPECT_EQ(checksum_line(result.out), checksum_line(serial.out)) << result.out;
  EXPECT_NE(result.out.find("job " + id + " forgotten"), std::string::npos) << result.out;
  // Gone from the root and from its deputy (node 2), which kept the end too.
  EXPECT_EQ(job_json(alice, id), "");
  const auto again = as(alice, "result " + id);
  EXPECT_EQ(again.exit_code, 1) << again.out;
}

TEST_F(JobQueueTest, AtMostMaxRunningJobsRunAtOnceAndTheNextOneWaitsItsTurn) {
  ASSERT_NO_FATAL_FAILURE(start_with(2, "[jobs]\nmax_running = 1"));
  const std::string alice = make_token("alice", "user");
  const auto serial = driftctl("run " + kJobQueueJob + " --serial");
  ASSERT_EQ(serial.exit_code, 0) << serial.out;
  const auto first = as(alice, "submit heat2d --tasks 6 --steps 1500 --size 96x96");
  ASSERT_EQ(first.exit_code, 0) << first.out;
  EXPECT_EQ(first.out.find("queued"), std::string::npos) << first.out;
  const std::string first_id = job_id_in(first.out);
  // `run` follows the second from the queue to its end.
  const auto second = as(alice, "run " + kJobQueueJob);
  EXPECT_EQ(second.exit_code, 0) << second.out;
  EXPECT_NE(second.out.find("queued: 1 job(s) running from this node (jobs.max_running = 1)"),
            std::string::npos)
      << second.out;
  EXPECT_EQ(checksum_line(second.out), checksum_line(serial.out)) << second.out;
  // It started only once the first had ended.
  EXPECT_NE(job_json(alice, first_id).find("\"state\":\"done\""), std::string::npos);
  const std::string log = log_of(1);
  const auto first_done = log.find("job " + first_id + " done");
  const auto second_starts = log.find("leaves the queue");
  ASSERT_NE(first_done, std::string::npos) << log;
  ASSERT_NE(second_starts, std::string::npos) << log;
  EXPECT_LT(first_done, second_starts);
}

TEST_F(JobQueueTest, AJobNeedingMoreMemoryThanTheNodesHaveWaitsUntilItsOwnerCancelsIt) {
  ASSERT_NO_FATAL_FAILURE(start_with(2, ""));
  wait_for_load_reports(1);  // the members' free memory is known
  const std::string alice = make_token("alice", "user");
  const std::string bob = make_token("bob", "user");
  const auto bad = as(alice, "submit " + kJobQueueJob + " --memory 12X");
  EXPECT_EQ(bad.exit_code, 2) << bad.out;  // checked by driftctl before anything is sent
  EXPECT_NE(bad.out.find("--memory '12X': expected the bytes one task needs"), std::string::npos)
      << bad.out;

  const auto submitted = as(alice, "submit " + kJobQueueJob + " --memory 100T");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.out;
  EXPECT_NE(submitted.out.find("queued: its 6 task(s) need"), std::string::npos) << submitted.out;
  EXPECT_NE(submitted.out.find("--memory); the 2 available node(s) have"), std::string::npos)
      << submitted.out;
  const std::string id = job_id_in(submitted.out);
  const auto refused = as(bob, "cancel " + id);
  EXPECT_EQ(refused.exit_code, 4) << refused.out;
  EXPECT_TRUE(wait_for_state(alice, id, "queued", 5s));
  const auto cancelled = as(alice, "cancel " + id);
  EXPECT_EQ(cancelled.exit_code, 0) << cancelled.out;
  EXPECT_NE(cancelled.out.find("cancelled by alice while it waited in the queue"),
            std::string::npos)
      << cancelled.out;
  EXPECT_TRUE(wait_for_state(alice, id, "cancelled", 5s));
  // Its application's own estimate fits: the same job without --memory runs.
  const auto fits = as(alice, "run " + kJobQueueJob);
  EXPECT_EQ(fits.exit_code, 0) << fits.out;
  EXPECT_EQ(fits.out.find("queued"), std::string::npos) << fits.out;
}

// A root's queue does not die with it: its deputy kept a record of each queued job, queues it
// itself when the root is killed, and starts it once a node is released.
TEST_F(JobQueueTest, AQueuedJobOutlivesItsRootInItsDeputysQueue) {
  ASSERT_NO_FATAL_FAILURE(start_with(3, ""));
  const std::string alice = make_token("alice", "user");
  const auto serial = driftctl("run " + kJobQueueJob + " --serial");
  ASSERT_EQ(serial.exit_code, 0) << serial.out;
  for (int k : {1, 2, 3}) {
    ASSERT_NO_FATAL_FAILURE(owner(k, OwnerAction::kReclaim, OwnerState::kReclaimed));
  }
  const auto submitted = as(alice, "submit " + kJobQueueJob + " --name night");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.out;
  const std::string id = job_id_in(submitted.out);
  ASSERT_FALSE(id.empty()) << submitted.out;
  ASSERT_TRUE(wait_for_state(alice, id, "queued", 5s));

  ASSERT_TRUE(cluster().kill(1, SIGKILL).is_ok());
  int deputy = 0;
  ASSERT_TRUE(poll_until(15s, 50ms, [&] {
    for (int k : {2, 3}) {
      if (log_of(k).find("this node, its deputy, queues it") != std::string::npos) deputy = k;
    }
    return deputy != 0;
  })) << "no node queued the job of its dead root:\n" << log_of(2) << log_of(3);
  const std::string waiting = job_json(alice, id, deputy);
  EXPECT_NE(waiting.find("\"state\":\"queued\""), std::string::npos) << waiting;
  EXPECT_NE(waiting.find("\"name\":\"night\""), std::string::npos) << waiting;
  EXPECT_NE(waiting.find("\"owner\":\"alice\""), std::string::npos) << waiting;

  const int other = deputy == 2 ? 3 : 2;
  ASSERT_NO_FATAL_FAILURE(owner(other, OwnerAction::kRelease, OwnerState::kAvailable, deputy));
  ASSERT_TRUE(wait_for_state(alice, id, "done", 60s, deputy))
      << as(alice, "jobs --all", deputy).out;
  const auto result = as(alice, "result " + id, deputy);
  EXPECT_EQ(result.exit_code, 0) << result.out;
  EXPECT_EQ(checksum_line(result.out), checksum_line(serial.out)) << result.out;
}

// A root that leaves on SIGTERM hands its queued jobs to its deputy before it stops.
TEST_F(JobQueueTest, ARootThatLeavesHandsItsQueuedJobsToItsDeputy) {
  ASSERT_NO_FATAL_FAILURE(start_with(2, ""));
  const std::string alice = make_token("alice", "user");
  for (int k : {1, 2}) ASSERT_NO_FATAL_FAILURE(owner(k, OwnerAction::kReclaim, OwnerState::kReclaimed));
  const auto submitted = as(alice, "submit " + kJobQueueJob);
  ASSERT_EQ(submitted.exit_code, 0) << submitted.out;
  const std::string id = job_id_in(submitted.out);
  ASSERT_TRUE(wait_for_state(alice, id, "queued", 5s));
  ASSERT_TRUE(cluster().kill(1, SIGTERM).is_ok());
  EXPECT_TRUE(poll_until(20s, 50ms, [&] { return fate_of(1) != "running"; }))
      << "node 1 did not leave";
  EXPECT_NE(log_of(2).find("left the cluster and handed the job over; this node, its deputy, "
                           "queues it"),
            std::string::npos)
      << log_of(2);
  EXPECT_NE(job_json(alice, id, 2).find("\"state\":\"queued\""), std::string::npos)
      << job_json(alice, id, 2);
}

// Whatever a user submits, the root's queue stays bounded: one owner may have 100 jobs
// waiting; the next fails at once, saying so, and another user's still queues.
TEST_F(JobQueueTest, OneOwnerMayHaveAHundredJobsWaitingAndNoMore) {
  ASSERT_NO_FATAL_FAILURE(start_with(1, ""));
  wait_for_load_reports(1);
  const std::string alice = make_token("alice", "user");
  const std::string bob = make_token("bob", "user");
  const std::string waits = "submit heat2d --tasks 2 --steps 10 --size 16x16 --memory 100T";
  for (int i = 0; i < 100; ++i) {
    const auto queued = as(alice, waits);
    ASSERT_EQ(queued.exit_code, 0) << "job " << i << ": " << queued.out;
  }
  const auto refused = as(alice, waits);
  EXPECT_EQ(refused.exit_code, 1) << refused.out;
  EXPECT_NE(refused.out.find("alice has 100 jobs waiting at node 1 already, the most one may"),
            std::string::npos)
      << refused.out;
  const auto other = as(bob, waits);
  EXPECT_EQ(other.exit_code, 0) << other.out;
  EXPECT_NE(other.out.find("queued"), std::string::npos) << other.out;
}

}  // namespace
}  // namespace drift::test
