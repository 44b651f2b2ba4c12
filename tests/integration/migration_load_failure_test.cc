// A small task state that arrived whole at a node whose worker runs the job already makes the
// task live there at once: the source lets it go while the worker loads it (docs/architecture.md
// §7.2). A load that fails after that is the job's loss on that node, as a worker's death is: the
// job rolls back to its checkpoint and still ends with the serial checksum, the move was
// reported done, and the job's notices name the task and why.
#include <gtest/gtest.h>

#include <optional>

#include "ctl/tasks_query.h"
#include "tests/integration/migration_harness.h"
#include "tests/integration/worker_fixture.h"

namespace drift::test {
namespace {

TEST_F(WorkerTest, AStateThatDoesNotLoadAfterItsMoveRollsTheJobBack) {
  ASSERT_NO_FATAL_FAILURE(start(2, 54, {"--balance.strategy=none"}));
  const std::string once = shared_file("unloadable-once");
  // Task 0's state does not load once it has made a step; the first time only.
  JobSpec spec = ctl::job_spec(
      "faulty", 4, 300,
      {{"work", "1000"}, {"at", "1"}, {"task", "0"}, {"do", "unloadable"}, {"once", once}});
  spec.runtime["checkpoint_steps"] = "10";
  std::optional<Result<MigrationReport>> report;
  Run run = run_own(faulty(), spec, 20, [&] {
    auto connection = connect(2);
    if (!connection) return;
    auto tasks = ctl::query_tasks(*connection, std::chrono::seconds(5));
    if (!tasks) {
      report = tasks.status();
      return;
    }
    for (const TaskInfo& t : tasks->tasks) {
      if (t.task.index == 0) report = migrate(*connection, t.task, t.node == 1 ? 2 : 1);
    }
  });
  ASSERT_TRUE(run.end.is_ok()) << run.end.error();
  ASSERT_TRUE(std::holds_alternative<JobResult>(*run.end)) << std::get<JobFailed>(*run.end).reason;
  const JobResult& result = std::get<JobResult>(*run.end);
  EXPECT_EQ(result.checksum, own_serial(faulty(), spec));
  EXPECT_EQ(result.recoveries, 1u);
  ASSERT_TRUE(report.has_value()) << "task 0 was not found to move";
  ASSERT_TRUE(report->is_ok()) << report->error();
  EXPECT_TRUE((*report)->ok) << "the move was not done: " << (*report)->reason;
  EXPECT_TRUE(std::filesystem::exists(once)) << "no load failed";
  const std::string text = notices_text(run);
  EXPECT_NE(text.find("task 0 did not load here after its move"), std::string::npos) << text;
  EXPECT_NE(text.find("faulty: task 0 does not load on purpose"), std::string::npos) << text;
  EXPECT_EQ(fate_of(1), "running");
  EXPECT_EQ(fate_of(2), "running");
}

}  // namespace
}  // namespace drift::test
