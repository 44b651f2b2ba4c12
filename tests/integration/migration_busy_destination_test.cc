// A move to a node that is itself sending tasks away: in each round one task arrives at node B
// while one or two of B's own tasks leave it (to the arriving task's old node, or the third
// node), all at once. chatter checks every channel; the job must end on the serial checksum.
#include <gtest/gtest.h>

#include <iostream>
#include <random>

#include "tests/integration/migration_harness.h"

namespace drift::test {
namespace {

constexpr int kBusyDestinationNodes = 3;
constexpr int kBusyDestinationRounds = 20;
constexpr int kBusyDestinationMinRounds = 8;

class BusyDestinationTest : public MigrationClusterTest {};

// A random task on `node` (off it, if `on` is false) other than `except`; nullopt if none.
std::optional<std::uint32_t> pick(const std::map<std::uint32_t, std::uint32_t>& at,
                                  std::uint32_t node, bool on, std::mt19937& rng,
                                  std::uint32_t except = ~0u) {
  std::vector<std::uint32_t> found;
  for (const auto& [index, where] : at) {
    if ((where == node) == on && index != except) found.push_back(index);
  }
  if (found.empty()) return std::nullopt;
  return found[rng() % found.size()];
}

TEST_F(BusyDestinationTest, MoveToANodeThatIsSendingTasksAway) {
  ASSERT_NO_FATAL_FAILURE(start_nodes(kBusyDestinationNodes, /*slot=*/8, {"--node.capacity=1"}));
  auto ref = reference_run(
      ctl::job_spec("chatter", 6, 3000, {{"fanout", "4"}, {"payload", "64"}, {"work", "500"}}));
  ASSERT_TRUE(ref.is_ok()) << ref.error();
  BackgroundJob job(connect(1), ref->spec, std::chrono::seconds(60));
  ASSERT_TRUE(job.wait_started(std::chrono::seconds(10))) << "the job did not start";
  auto mover = connect(2);
  auto viewer = connect(3);
  ASSERT_TRUE(mover && viewer);
  auto table = task_table(*viewer, job.id());
  ASSERT_TRUE(table.is_ok()) << table.error();
  ASSERT_EQ(table->size(), ref->spec.tasks);
  std::map<std::uint32_t, std::uint32_t> at;
  for (const auto& [index, info] : *table) at[index] = info.node;

  std::mt19937 rng(8);
  int rounds = 0;
  int exchanges = 0;
  bool ending = false;
  for (; rounds < kBusyDestinationRounds && !ending && !job.done(); ++rounds) {
    const std::uint32_t busy = 1 + static_cast<std::uint32_t>(rng() % kBusyDestinationNodes);
    auto arriving = pick(at, busy, false, rng);
    auto leaving = pick(at, busy, true, rng);
    if (!arriving || !leaving) continue;  // every task on one node, or none on `busy`
    std::vector<MigrateRequest> moves{{TaskId{job.id(), *arriving}, busy}};
    const std::uint32_t to = random_other_node(busy, kBusyDestinationNodes, rng);
    if (to == at[*arriving]) ++exchanges;
    moves.push_back({TaskId{job.id(), *leaving}, to});
    if (rounds % 3 == 0) {  // a second task leaves too, to the other node
      if (auto second = pick(at, busy, true, rng, *leaving)) {
        moves.push_back({TaskId{job.id(), *second}, 6 - busy - to});
      }
    }
    auto reports = migrate_together(*mover, moves);
    ASSERT_TRUE(reports.is_ok()) << "round " << rounds << ": " << reports.error();
    for (const auto& r : *reports) {
      if (job_is_ending(r)) {
        ending = true;
        continue;
      }
      EXPECT_TRUE(r.ok) << "round " << rounds << ": task " << r.task.index << " from node "
                        << r.from << " to " << r.to << ": " << r.reason;
      if (r.ok) at[r.task.index] = r.to;
    }
  }

  ASSERT_TRUE(job.wait_done(std::chrono::seconds(60))) << "the job did not end";
  EXPECT_TRUE(ended_with_checksum(job.outcome(), ref->checksum));
  EXPECT_GE(rounds, kBusyDestinationMinRounds)
      << "the job ended before the test moved its tasks enough";
  std::cout << rounds << " rounds (" << exchanges << " exchanges) in a " << job.seconds()
            << " s job; " << describe(total_counters()) << "\n";
}

}  // namespace
}  // namespace drift::test
