// Reclaim during a migration (docs/architecture.md §7, §9): task 0 of a ballast job with 48 MB of state per
// task starts moving from node 1 to node 2, and both ends are reclaimed while it moves. Whatever
// the move's outcome (it may finish on node 2, or be refused there), both nodes end up empty and
// reclaimed, node 3 — the only available node left — hosts every task, and the job ends with the
// serial checksum.
#include <gtest/gtest.h>

#include <iostream>

#include "ctl/owner_client.h"
#include "tests/integration/migration_harness.h"
#include "tests/integration/owner_harness.h"
#include "tests/integration/poll.h"

namespace drift::test {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST_F(MigrationClusterTest, ReclaimingBothEndsOfAMigrationEmptiesThemAndKeepsTheJobCorrect) {
  ASSERT_NO_FATAL_FAILURE(start_nodes(3, /*slot=*/59, {"--node.capacity=1"}));
  auto ref = reference_run(ctl::job_spec("ballast", 3, 4000, {{"state", "48M"}, {"work", "500"}}));
  ASSERT_TRUE(ref.is_ok()) << ref.error();
  BackgroundJob job(connect(1), ref->spec, seconds(150));
  ASSERT_TRUE(job.wait_started(seconds(20))) << "the job did not start";

  // Equal capacities: task i starts on node i + 1.
  auto mover = connect(3);
  ASSERT_NE(mover, nullptr);
  ASSERT_TRUE(mover->send(MigrateRequest{TaskId{job.id(), 0}, 2}).is_ok());
  const auto deadline = ctl::Clock::now() + seconds(10);
  for (std::uint32_t node : {2u, 1u}) {
    auto reply = ctl::request_owner_action(connect_options(static_cast<int>(node)),
                                           OwnerAction::kReclaim, deadline);
    ASSERT_TRUE(reply.is_ok()) << reply.error();
    EXPECT_NE(reply->state, OwnerState::kAvailable);
  }
  auto report = mover->receive(ctl::Clock::now() + seconds(60));
  ASSERT_TRUE(report.is_ok()) << report.error();
  ASSERT_TRUE(std::holds_alternative<MigrationReport>(*report));
  const auto& r = std::get<MigrationReport>(*report);
  std::cout << "the move of task 0 to node 2 " << (r.ok ? "finished" : "did not: " + r.reason)
            << "\n";

  for (int k : {1, 2}) {
    EXPECT_TRUE(wait_for_owner_state(connect_options(k), static_cast<std::uint32_t>(k),
                                     OwnerState::kReclaimed, seconds(30), /*empty=*/true))
        << "node " << k << " did not empty";
  }
  EXPECT_FALSE(job.done()) << "the job ended before the nodes emptied: the test proves little";
  auto c3 = connect(3);
  ASSERT_NE(c3, nullptr);
  auto table = task_table(*c3, job.id());
  ASSERT_TRUE(table.is_ok()) << table.error();
  for (const auto& [index, info] : *table) EXPECT_EQ(info.node, 3u) << "task " << index;

  ASSERT_TRUE(job.wait_done(seconds(150))) << "the job did not end";
  EXPECT_TRUE(ended_with_checksum(job.outcome(), ref->checksum));
}

}  // namespace
}  // namespace drift::test
