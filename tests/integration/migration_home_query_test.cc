// Messages for tasks a node never hosted, found through the task's home (docs/architecture.md §7: "a sender
// that knows no location asks the home"). Node 4 has next to no capacity, so the job (rooted at
// node 1, its home) places nothing there and node 4 never learns the placement. Moving task 4
// onto node 4 makes it send to tasks node 4 never hosted nor heard of: node 4 must hold those
// messages and ask node 1, whose answers from its cache (for tasks it does not host itself) show
// in its location-update counter — node 1 sends no other updates here. Then, with forwarding
// pointers dropped after 1 ms (swept every second), random moves make late messages reach nodes
// whose pointer is gone, which must ask the home too. chatter checks every channel; the job
// must end on the serial checksum.
#include <gtest/gtest.h>

#include <iostream>
#include <random>

#include "tests/integration/migration_harness.h"
#include "tests/integration/poll.h"

namespace drift::test {
namespace {

constexpr int kHomeQuerySlot = 10;
constexpr std::uint32_t kHome = 1;
constexpr std::uint32_t kNewcomer = 4;
constexpr int kHomeQueryNodes = 4;
constexpr int kMoves = 20;

class HomeQueryTest : public MigrationClusterTest {};

TEST_F(HomeQueryTest, NodeThatNeverHostedTheTasksAsksTheHome) {
  ASSERT_NO_FATAL_FAILURE(
      start_nodes(3, kHomeQuerySlot, {"--node.capacity=1", "--migration.pointer_ttl_ms=1"},
                  {{"--node.capacity=0.000001", "--migration.pointer_ttl_ms=1"}}));
  // Equal capacities but node 4's: tasks 0-1 on node 1, 2-3 on node 2, 4-5 on node 3.
  auto ref = reference_run(
      ctl::job_spec("chatter", 6, 3000, {{"fanout", "4"}, {"payload", "64"}, {"work", "500"}}));
  ASSERT_TRUE(ref.is_ok()) << ref.error();
  auto before = counters_of(kHome);
  ASSERT_TRUE(before.is_ok()) << before.error();
  BackgroundJob job(connect(kHome), ref->spec, std::chrono::seconds(60));
  ASSERT_TRUE(job.wait_started(std::chrono::seconds(10))) << "the job did not start";
  auto mover = connect(2);
  auto viewer = connect(3);
  ASSERT_TRUE(mover && viewer);
  auto table = task_table(*viewer, job.id());
  ASSERT_TRUE(table.is_ok()) << table.error();
  ASSERT_EQ(table->size(), ref->spec.tasks);
  std::map<std::uint32_t, std::uint32_t> at;
  for (const auto& [index, info] : *table) {
    ASSERT_NE(info.node, kNewcomer) << "task " << index << " was placed on node 4";
    at[index] = info.node;
  }
  ASSERT_EQ(at[4], 3u);
  auto moved = migrate(*mover, TaskId{job.id(), 4}, kNewcomer);
  ASSERT_TRUE(moved.is_ok()) << moved.error();
  ASSERT_TRUE(moved->ok) << moved->reason;
  at[4] = kNewcomer;

  std::uint64_t home_updates = 0;
  EXPECT_TRUE(poll_until(std::chrono::seconds(5), std::chrono::milliseconds(20), [&] {
    auto now = counters_of(kHome);
    home_updates = now ? now->location_updates - before->location_updates : 0;
    return home_updates > 0 || job.done();
  })) << "node 1 (the home) answered no location query of node 4 from its cache";
  EXPECT_GT(home_updates, 0u);
  std::cout << "the home answered " << home_updates << " location queries from its cache\n";

  std::mt19937 rng(10);
  int moves = 0;
  for (; moves < kMoves && !job.done(); ++moves) {
    const std::uint32_t index = static_cast<std::uint32_t>(rng() % ref->spec.tasks);
    auto r = migrate(*mover, TaskId{job.id(), index},
                     random_other_node(at[index], kHomeQueryNodes, rng));
    ASSERT_TRUE(r.is_ok()) << r.error();
    if (job_is_ending(*r)) break;
    EXPECT_TRUE(r->ok) << "task " << index << " from " << r->from << " to " << r->to << ": "
                       << r->reason;
    if (r->ok) at[index] = r->to;
  }

  ASSERT_TRUE(job.wait_done(std::chrono::seconds(60))) << "the job did not end";
  EXPECT_TRUE(ended_with_checksum(job.outcome(), ref->checksum));
  std::cout << moves << " further moves in a " << job.seconds() << " s job; "
            << describe(total_counters()) << "\n";
}

}  // namespace
}  // namespace drift::test
