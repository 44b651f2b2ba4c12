// A task moved again before its first location update arrived: the test issues A->B and B->C
// back to back (both requests sent before either report), and if the daemon refuses the second
// because the first is still running, re-issues it the moment the first report arrives — so the
// task leaves B while its senders and its home may still believe it is on A. chatter checks
// every channel; the task must end up on C two moves later, and the job on the serial checksum.
#include <gtest/gtest.h>

#include <iostream>
#include <random>

#include "tests/integration/migration_harness.h"

namespace drift::test {
namespace {

constexpr int kChainNodes = 3;
constexpr int kChains = 15;
constexpr int kMinChains = 6;

class ChainMigrationTest : public MigrationClusterTest {};

TEST_F(ChainMigrationTest, TaskMovesAgainBeforeItsLocationUpdateArrived) {
  ASSERT_NO_FATAL_FAILURE(start_nodes(kChainNodes, /*slot=*/7, {"--node.capacity=1"}));
  auto ref = reference_run(
      ctl::job_spec("chatter", 6, 3000, {{"fanout", "4"}, {"payload", "64"}, {"work", "500"}}));
  ASSERT_TRUE(ref.is_ok()) << ref.error();
  BackgroundJob job(connect(1), ref->spec, std::chrono::seconds(60));
  ASSERT_TRUE(job.wait_started(std::chrono::seconds(10))) << "the job did not start";
  auto mover = connect(3);  // not the home (node 1): the command takes the longer way
  auto viewer = connect(2);
  ASSERT_TRUE(mover && viewer);

  std::mt19937 rng(7);
  int chains = 0;
  int second_accepted_at_once = 0;  // the first move was over before the second reached the task
  bool ending = false;
  for (; chains < kChains && !ending && !job.done(); ++chains) {
    auto table = task_table(*viewer, job.id());
    ASSERT_TRUE(table.is_ok()) << table.error();
    const std::uint32_t index = static_cast<std::uint32_t>(rng() % ref->spec.tasks);
    ASSERT_TRUE(table->count(index)) << "task " << index << " is nowhere";
    const TaskInfo before = table->at(index);
    const TaskId task{job.id(), index};
    const std::uint32_t b = random_other_node(before.node, kChainNodes, rng);
    const std::uint32_t c = 6 - before.node - b;  // the third node of 1, 2, 3
    auto reports = migrate_together(*mover, {{task, b}, {task, c}});
    ASSERT_TRUE(reports.is_ok()) << reports.error();
    bool at_b = false, at_c = false;
    for (const auto& r : *reports) {
      if (job_is_ending(r)) {
        ending = true;
      } else if (r.to == b) {
        EXPECT_TRUE(r.ok) << "chain " << chains << ": " << before.node << "->" << b << ": "
                          << r.reason;
        at_b = r.ok;
      } else if (r.ok) {
        at_c = true;
        ++second_accepted_at_once;
      } else {
        EXPECT_NE(r.reason.find("already migrating"), std::string::npos)
            << "the second move may only be refused because the first is running: " << r.reason;
      }
    }
    if (ending || !at_b) continue;
    if (!at_c) {  // immediately after the first move's report: updates are still in flight
      auto again = migrate(*mover, task, c);
      ASSERT_TRUE(again.is_ok()) << again.error();
      if (job_is_ending(*again)) break;
      EXPECT_TRUE(again->ok) << "chain " << chains << ": " << b << "->" << c << ": "
                             << again->reason;
      at_c = again->ok;
    }
    if (!at_c) continue;
    auto after = task_table(*viewer, job.id());
    ASSERT_TRUE(after.is_ok()) << after.error();
    if (job.done()) break;
    ASSERT_TRUE(after->count(index));
    EXPECT_EQ(after->at(index).node, c) << "chain " << chains;
    EXPECT_EQ(after->at(index).epoch, before.epoch + 2) << "chain " << chains;
  }

  ASSERT_TRUE(job.wait_done(std::chrono::seconds(60))) << "the job did not end";
  EXPECT_TRUE(ended_with_checksum(job.outcome(), ref->checksum));
  EXPECT_GE(chains, kMinChains) << "the job ended before the test moved its tasks enough";
  std::cout << chains << " chains in a " << job.seconds() << " s job; the back-to-back second "
            << "request found the first move over in " << second_accepted_at_once
            << " (else refused as already migrating, then re-issued); "
            << describe(total_counters()) << "\n";
}

}  // namespace
}  // namespace drift::test
