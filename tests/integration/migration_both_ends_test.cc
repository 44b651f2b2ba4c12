// Both ends of a channel migrating at once: a two-task chatter job (every message is on the
// channel 0<->1) while the test moves both tasks in the same instant, again and again, often
// swapping their nodes. Every message must still arrive once and in order (chatter checks, and
// its checksum equals the serial reference's only then).
#include <gtest/gtest.h>

#include <iostream>
#include <random>

#include "tests/integration/migration_harness.h"

namespace drift::test {
namespace {

constexpr int kBothEndsNodes = 3;
constexpr int kBothEndsRounds = 30;
constexpr int kBothEndsMinRounds = 10;

class BothEndsMigratingTest : public MigrationClusterTest {};

TEST_F(BothEndsMigratingTest, BothEndsOfAChannelMoveAtOnce) {
  ASSERT_NO_FATAL_FAILURE(start_nodes(kBothEndsNodes, /*slot=*/6, {"--node.capacity=1"}));
  auto ref = reference_run(
      ctl::job_spec("chatter", 2, 6000, {{"fanout", "8"}, {"payload", "100"}, {"work", "500"}}));
  ASSERT_TRUE(ref.is_ok()) << ref.error();
  BackgroundJob job(connect(1), ref->spec, std::chrono::seconds(60));
  ASSERT_TRUE(job.wait_started(std::chrono::seconds(10))) << "the job did not start";
  auto mover = connect(2);
  auto viewer = connect(3);
  ASSERT_TRUE(mover && viewer);
  auto table = task_table(*viewer, job.id());
  ASSERT_TRUE(table.is_ok()) << table.error();
  ASSERT_EQ(table->size(), 2u);
  std::map<std::uint32_t, std::uint32_t> at;
  for (const auto& [index, info] : *table) at[index] = info.node;

  std::mt19937 rng(6);
  int rounds = 0;
  int swaps = 0;
  bool ending = false;
  for (; rounds < kBothEndsRounds && !ending && !job.done(); ++rounds) {
    std::vector<MigrateRequest> moves;
    for (std::uint32_t i : {0u, 1u}) {
      moves.push_back({TaskId{job.id(), i}, random_other_node(at[i], kBothEndsNodes, rng)});
    }
    if (moves[0].dest == at[1] && moves[1].dest == at[0]) ++swaps;
    auto reports = migrate_together(*mover, moves);
    ASSERT_TRUE(reports.is_ok()) << "round " << rounds << ": " << reports.error();
    for (const auto& r : *reports) {
      if (job_is_ending(r)) {
        ending = true;
        continue;
      }
      EXPECT_TRUE(r.ok) << "round " << rounds << ": moving task " << r.task.index << " from node "
                        << r.from << " to " << r.to << ": " << r.reason;
      if (r.ok) at[r.task.index] = r.to;
    }
  }

  ASSERT_TRUE(job.wait_done(std::chrono::seconds(60))) << "the job did not end";
  EXPECT_TRUE(ended_with_checksum(job.outcome(), ref->checksum));
  EXPECT_GE(rounds, kBothEndsMinRounds) << "the job ended before the test moved its tasks enough";
  std::cout << rounds << " rounds (" << swaps << " swaps) in a " << job.seconds() << " s job; "
            << describe(total_counters()) << "\n";
}

}  // namespace
}  // namespace drift::test
