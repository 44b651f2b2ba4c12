// A destination that refuses: node 3 is started with node.accept_tasks = false, or with a
// node.memory_limit smaller than the task's state. The MigrationReport says refused and why, the
// task stays where it was (same node, same epoch) and keeps running there — the job's steps go
// on — it can still move to a willing node, and the job ends with the serial checksum.
#include <gtest/gtest.h>

#include <iostream>

#include "tests/integration/migration_harness.h"
#include "tests/integration/poll.h"

namespace drift::test {
namespace {

constexpr int kRefusedSlot = 9;
constexpr std::uint32_t kRefusing = 3;

class RefusingDestinationTest : public MigrationClusterTest {
 protected:
  // Moves `task` (now on `source`, epoch `epoch`) to the refusing node and checks the refusal
  // names `why`, the task did not move and the job still makes progress.
  void expect_refused(BackgroundJob& job, ctl::ClientConnection& mover,
                      ctl::ClientConnection& viewer, std::uint32_t index, std::uint32_t source,
                      const std::string& why) {
    auto report = migrate(mover, TaskId{job.id(), index}, kRefusing);
    ASSERT_TRUE(report.is_ok()) << report.error();
    EXPECT_FALSE(report->ok);
    EXPECT_NE(report->reason.find(why), std::string::npos) << report->reason;
    EXPECT_EQ(report->from, source);
    EXPECT_EQ(report->to, kRefusing);
    auto table = task_table(viewer, job.id());
    ASSERT_TRUE(table.is_ok()) << table.error();
    ASSERT_TRUE(table->count(index)) << "task " << index << " is nowhere";
    EXPECT_EQ(table->at(index).node, source) << "a refused task stays at its source";
    EXPECT_EQ(table->at(index).epoch, 0u) << "a refused move is not a move";
    // Every step needs every task: more steps mean the task runs again at its source.
    const std::uint64_t step = job.steps_done();
    EXPECT_TRUE(poll_until(std::chrono::seconds(10), std::chrono::milliseconds(10),
                           [&] { return job.steps_done() >= step + 3 || job.done(); }))
        << "the job is stuck at step " << step << " after a refused move";
    std::cout << "refused: " << report->reason << "\n";
  }
};

TEST_F(RefusingDestinationTest, UnavailableNodeRefusesAndTheTaskResumes) {
  ASSERT_NO_FATAL_FAILURE(start_nodes(2, kRefusedSlot, {"--node.capacity=1"},
                                      {{"--node.capacity=1", "--node.accept_tasks=false"}}));
  auto ref = reference_run(
      ctl::job_spec("chatter", 6, 1500, {{"fanout", "4"}, {"payload", "64"}, {"work", "500"}}));
  ASSERT_TRUE(ref.is_ok()) << ref.error();
  BackgroundJob job(connect(1), ref->spec, std::chrono::seconds(60));
  ASSERT_TRUE(job.wait_started(std::chrono::seconds(10))) << "the job did not start";
  auto mover = connect(2);
  auto viewer = connect(1);
  ASSERT_TRUE(mover && viewer);
  // Equal capacities: tasks 0-1 on node 1, 2-3 on node 2, 4-5 on the refusing node 3.
  for (std::uint32_t round = 0; round < 4; ++round) {
    ASSERT_NO_FATAL_FAILURE(
        expect_refused(job, *mover, *viewer, round % 2, 1, "node 3 does not accept tasks"));
  }
  auto willing = migrate(*mover, TaskId{job.id(), 0}, 2);
  ASSERT_TRUE(willing.is_ok()) << willing.error();
  EXPECT_TRUE(willing->ok) << "a refused task can still move elsewhere: " << willing->reason;
  auto away = migrate(*mover, TaskId{job.id(), 4}, 1);
  ASSERT_TRUE(away.is_ok()) << away.error();
  EXPECT_TRUE(away->ok) << "a node that refuses tasks can still send its own: " << away->reason;

  ASSERT_TRUE(job.wait_done(std::chrono::seconds(60))) << "the job did not end";
  EXPECT_TRUE(ended_with_checksum(job.outcome(), ref->checksum));
  std::cout << "job of " << job.seconds() << " s; " << describe(total_counters()) << "\n";
}

TEST_F(RefusingDestinationTest, TooLittleMemoryRefusesAndTheTaskResumes) {
  ASSERT_NO_FATAL_FAILURE(start_nodes(2, kRefusedSlot, {"--node.capacity=1"},
                                      {{"--node.capacity=1", "--node.memory_limit=1048576"}}));
  auto ref = reference_run(ctl::job_spec("ballast", 3, 1500, {{"state", "2M"}, {"work", "200"}}));
  ASSERT_TRUE(ref.is_ok()) << ref.error();
  BackgroundJob job(connect(1), ref->spec, std::chrono::seconds(60));
  ASSERT_TRUE(job.wait_started(std::chrono::seconds(10))) << "the job did not start";
  auto mover = connect(2);
  auto viewer = connect(1);
  ASSERT_TRUE(mover && viewer);
  // One task per node: task 0 on node 1.
  ASSERT_NO_FATAL_FAILURE(expect_refused(job, *mover, *viewer, 0, 1, "not enough memory"));
  ASSERT_NO_FATAL_FAILURE(expect_refused(job, *mover, *viewer, 0, 1, "1048576 available"));
  auto willing = migrate(*mover, TaskId{job.id(), 0}, 2);
  ASSERT_TRUE(willing.is_ok()) << willing.error();
  EXPECT_TRUE(willing->ok) << "a refused task can still move elsewhere: " << willing->reason;
  EXPECT_GE(willing->state_bytes, 2u << 20);

  ASSERT_TRUE(job.wait_done(std::chrono::seconds(60))) << "the job did not end";
  EXPECT_TRUE(ended_with_checksum(job.outcome(), ref->checksum));
  std::cout << "job of " << job.seconds() << " s; " << describe(total_counters()) << "\n";
}

}  // namespace
}  // namespace drift::test
