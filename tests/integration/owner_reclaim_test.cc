// Owner reclaim on real daemons (docs/architecture.md §9), the owner of node 2 being a file the test touches
// (owner_harness.h):
//  - the owner arrives mid-run under the immediate policy: node 2 empties while the job runs, and
//    the job's checksum equals the serial reference;
//  - brief activity under the desktop policy: node 2 suspends (its tasks pause, the job stalls)
//    and resumes when the owner leaves, without migrating anything;
//  - reclaim / release by driftctl: a reclaimed node gets no part of a new job, a released one
//    does, and status --json shows its state.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>

#include "ctl/owner_client.h"
#include "ctl/status_query.h"
#include "ctl/status_view.h"
#include "ctl/tasks_query.h"
#include "tests/integration/driftctl_process.h"
#include "tests/integration/migration_harness.h"
#include "tests/integration/owner_harness.h"
#include "tests/integration/poll.h"

namespace drift::test {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

class OwnerReclaimTest : public MigrationClusterTest {
 protected:
  // Node 1 plain, node 2 with its owner at `activity_` under `policy`, node 3 plain.
  void start_three(int slot, const std::string& policy, const std::vector<std::string>& more = {}) {
    activity_ = dir_ / "owner2-active";
    ASSERT_NO_FATAL_FAILURE(start_nodes(1, slot, {}, {owner_args(policy, activity_, more), {}}));
  }
  // Starts `spec` (checked against its serial reference `ref`) from node 1 and waits until it
  // has done 20 steps with some of its tasks on node 2 (`hosted` of them).
  void start_on_node2(const JobSpec& spec, std::optional<ReferenceRun>& ref,
                      std::unique_ptr<BackgroundJob>& job, int& hosted) {
    auto reference = reference_run(spec);
    ASSERT_TRUE(reference.is_ok()) << reference.error();
    ref = std::move(reference).value();
    job = std::make_unique<BackgroundJob>(connect(1), ref->spec, seconds(150));
    ASSERT_TRUE(job->wait_started(seconds(20))) << "the job did not start";
    ASSERT_TRUE(poll_until(seconds(30), milliseconds(20), [&] { return job->steps_done() >= 20; }));
    hosted = tasks_on(job->id(), 2);
    ASSERT_GT(hosted, 0) << "placement gave node 2 nothing";
  }
  int tasks_on(std::uint64_t job, std::uint32_t node) {
    auto c = connect(1);
    if (!c) return -1;
    auto table = task_table(*c, job);
    if (!table) return -1;
    return static_cast<int>(std::count_if(table->begin(), table->end(),
                                          [&](const auto& e) { return e.second.node == node; }));
  }
  std::filesystem::path activity_;
};

TEST_F(OwnerReclaimTest, OwnerArrivingMidRunEmptiesTheNodeAndTheJobStaysCorrect) {
  ASSERT_NO_FATAL_FAILURE(start_three(55, "immediate"));
  std::optional<ReferenceRun> ref;
  std::unique_ptr<BackgroundJob> running;
  int hosted = 0;
  ASSERT_NO_FATAL_FAILURE(start_on_node2(ctl::job_spec("heat2d", 12, 3000, {{"size", "384x384"}}),
                                         ref, running, hosted));
  BackgroundJob& job = *running;

  touch_now(activity_);
  EXPECT_TRUE(wait_for_owner_state(connect_options(2), 2, OwnerState::kReclaimed, seconds(20),
                                   /*empty=*/true))
      << "node 2 did not empty within 20 s of its owner's arrival";
  EXPECT_FALSE(job.done()) << "the job ended before node 2 emptied: the test proves nothing";
  EXPECT_EQ(tasks_on(job.id(), 2), 0);

  ASSERT_TRUE(job.wait_done(seconds(150))) << "the job did not end";
  EXPECT_TRUE(ended_with_checksum(job.outcome(), ref->checksum));
  auto counters = counters_of(2);
  ASSERT_TRUE(counters.is_ok()) << counters.error();
  EXPECT_GE(counters->migrations_out, static_cast<std::uint64_t>(hosted)) << describe(*counters);
  EXPECT_EQ(counters->migrations_in, 0u) << "a node with its owner took work";
}

TEST_F(OwnerReclaimTest, BriefActivitySuspendsAndResumesWithoutMigrating) {
  // Suspend on input under 1 s old; resume after 2 s without input; vacate only after 60 s.
  ASSERT_NO_FATAL_FAILURE(start_three(56, "desktop",
                                      {"--owner.suspend_idle=1", "--owner.continue_idle=2",
                                       "--owner.start_idle=2", "--owner.max_suspend=60"}));
  std::optional<ReferenceRun> ref;
  std::unique_ptr<BackgroundJob> running;
  int hosted = 0;
  ASSERT_NO_FATAL_FAILURE(start_on_node2(ctl::job_spec("heat2d", 12, 2000, {{"size", "256x256"}}),
                                         ref, running, hosted));
  BackgroundJob& job = *running;

  touch_now(activity_);
  ASSERT_TRUE(wait_for_owner_state(connect_options(2), 2, OwnerState::kSuspended, seconds(5)))
      << "node 2 did not suspend";
  auto during = own_status(connect_options(2), 2);
  ASSERT_TRUE(during.is_ok()) << during.error();
  EXPECT_EQ(static_cast<int>(during->load.task_count), hosted) << "suspended tasks stay in memory";
  EXPECT_FALSE(job.done()) << "the job ended while node 2 was suspended";
  ASSERT_TRUE(wait_for_owner_state(connect_options(2), 2, OwnerState::kAvailable, seconds(10)))
      << "node 2 did not resume after its owner left";

  ASSERT_TRUE(job.wait_done(seconds(150))) << "the job did not end";
  auto outcome = job.outcome();
  EXPECT_TRUE(ended_with_checksum(outcome, ref->checksum));
  ASSERT_TRUE(outcome.is_ok()) << outcome.error();
  const auto* result = std::get_if<JobResult>(&*outcome);
  ASSERT_NE(result, nullptr);
  EXPECT_EQ(result->migrations, 0u) << "a suspension must not migrate";
  // The paused tasks held the job up for about the suspension (~2 s); steps otherwise take ms.
  const double longest = *std::max_element(result->step_s.begin(), result->step_s.end());
  EXPECT_GT(longest, 1.0) << "no step waited for the suspended node: its tasks did not pause";
  auto counters = counters_of(2);
  ASSERT_TRUE(counters.is_ok()) << counters.error();
  EXPECT_EQ(counters->migrations_out, 0u) << describe(*counters);
}

TEST_F(OwnerReclaimTest, ReclaimedNodeGetsNoWorkUntilReleased) {
  ASSERT_NO_FATAL_FAILURE(start_three(57, "never"));
  const std::string node2 = "--node " + cluster().node_endpoint(2).to_string() +
                            " --secret-file " + cluster().secret_file().string() + " ";
  const auto reclaimed = driftctl(node2 + "reclaim --wait --timeout 10");
  ASSERT_EQ(reclaimed.exit_code, 0) << reclaimed.out;
  EXPECT_NE(reclaimed.out.find("node 2 (node2): reclaimed (reclaimed by command)"),
            std::string::npos)
      << reclaimed.out;
  // Every node's view (heartbeats) must show it before a job is placed.
  ASSERT_TRUE(poll_until(seconds(5), milliseconds(20), [&] {
    auto reply = ctl::query_status(connect_options(1), seconds(2));
    if (!reply) return false;
    return status_json(*reply)["nodes"][1]["state"] == "reclaimed";
  })) << "node 1 does not see node 2 reclaimed";

  auto run_and_count_node2 = [&](int& on_node2) {
    auto ref = reference_run(ctl::job_spec("heat2d", 6, 2000, {{"size", "192x192"}}));
    ASSERT_TRUE(ref.is_ok()) << ref.error();
    BackgroundJob job(connect(1), ref->spec, seconds(120));
    ASSERT_TRUE(job.wait_started(seconds(20))) << "the job did not start";
    on_node2 = job.done() ? -1 : tasks_on(job.id(), 2);
    ASSERT_TRUE(job.wait_done(seconds(120))) << "the job did not end";
    EXPECT_TRUE(ended_with_checksum(job.outcome(), ref->checksum));
  };
  int before = -1;
  ASSERT_NO_FATAL_FAILURE(run_and_count_node2(before));
  EXPECT_EQ(before, 0) << "a reclaimed node was given tasks";

  const auto released = driftctl(node2 + "release");
  ASSERT_EQ(released.exit_code, 0) << released.out;
  EXPECT_NE(released.out.find("node 2 (node2): available (released by command)"),
            std::string::npos)
      << released.out;
  ASSERT_TRUE(poll_until(seconds(5), milliseconds(20), [&] {
    auto reply = ctl::query_status(connect_options(1), seconds(2));
    return reply && status_json(*reply)["nodes"][1]["state"] == "available";
  })) << "node 1 does not see node 2 available again";
  int after = -1;
  ASSERT_NO_FATAL_FAILURE(run_and_count_node2(after));
  EXPECT_GT(after, 0) << "the released node received no work";
}

}  // namespace
}  // namespace drift::test
