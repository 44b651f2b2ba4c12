// A job that ends (here: its client cancels it) while one of its tasks is in transit: the
// move must still be answered (a MigrationReport, here saying it failed), and nothing of the job
// may be left on any node. A one-task ballast job with 400 MB of state moves from its node to
// another; the client cancels the job as soon as its node's debug log says the other accepted, so
// the job ends while the state is on the wire (a 400 MB move takes about a second more).
#include <gtest/gtest.h>

#include <iostream>

#include "tests/integration/migration_harness.h"
#include "tests/integration/poll.h"
#include "tests/integration/sanitized_build.h"

namespace drift::test {
namespace {

class MigrationAtJobEndTest : public MigrationClusterTest {};

TEST_F(MigrationAtJobEndTest, MoveInterruptedByTheJobsEndIsAnsweredAndLeavesNothing) {
  ASSERT_NO_FATAL_FAILURE(start_nodes(3, /*slot=*/14, {"--node.capacity=1", "--log.level=debug"}));
  auto submitter = connect(1);
  ASSERT_NE(submitter, nullptr);
  JobSpec spec = ctl::job_spec("ballast", 1, 1'000'000, {{"state", "400M"}, {"work", "500"}});
  ASSERT_TRUE(submitter->send(RunRequest{spec}).is_ok());
  auto first = submitter->receive(ctl::Clock::now() + std::chrono::seconds(30));
  ASSERT_TRUE(first.is_ok()) << first.error();
  ASSERT_TRUE(std::holds_alternative<JobProgress>(*first)) << "the job did not start";
  const std::uint64_t job = std::get<JobProgress>(*first).job;

  auto viewer = connect(2);
  auto mover = connect(2);
  ASSERT_TRUE(viewer && mover);
  // Placement picks any of the three equal nodes: the task moves to the next one.
  std::uint32_t from = 0;
  ASSERT_TRUE(poll_until(std::chrono::seconds(10), std::chrono::milliseconds(20), [&] {
    auto where = task_table(*viewer, job);
    if (where && where->count(0)) from = where->at(0).node;
    return from != 0;
  })) << "task 0 is listed on no node";
  const std::uint32_t dest = from % 3 + 1;
  ASSERT_TRUE(mover->send(MigrateRequest{TaskId{job, 0}, dest}).is_ok());
  // The task's node logs the destination's acceptance. Under ThreadSanitizer the worker takes
  // 26 s to fill and hand over its 400 MB before the offer can go (30 s were once too few).
  const auto wait = std::chrono::seconds(kSanitizedBuild ? 120 : 30);
  const bool accepted = poll_until(wait, std::chrono::milliseconds(1), [&] {
    return log_of(static_cast<int>(from)).find(": accepted after ") != std::string::npos;
  });
  // The client cancels the job: the root ends it everywhere.
  ASSERT_TRUE(submitter->send(JobCancel{job}).is_ok());
  ASSERT_TRUE(accepted) << "node " << from << " never logged that node " << dest
                        << " accepted the offer";

  auto report = mover->receive(ctl::Clock::now() + std::chrono::seconds(20));
  ASSERT_TRUE(report.is_ok()) << "no MigrationReport for a move the job's end interrupted: "
                              << report.error();
  ASSERT_TRUE(std::holds_alternative<MigrationReport>(*report));
  const auto& r = std::get<MigrationReport>(*report);
  std::cout << "the move " << (r.ok ? "succeeded" : "failed: " + r.reason) << "\n";

  std::map<std::uint32_t, TaskInfo> left;
  const bool gone = poll_until(std::chrono::seconds(10), std::chrono::milliseconds(100), [&] {
    auto now = task_table(*viewer, job);
    if (now) left = *now;
    return now && now->empty();
  });
  std::string survivors;
  for (const auto& [index, info] : left) {
    survivors += " task " + std::to_string(index) + " on node " + std::to_string(info.node);
  }
  EXPECT_TRUE(gone) << "still hosted after the job ended:" << survivors;
}

}  // namespace
}  // namespace drift::test
