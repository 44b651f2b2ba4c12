// ForwardingTable: pointers left by tasks that moved away. A newer pointer replaces an older one;
// each sender's node is told of a move once per epoch and the destination never; pointers unused
// for the TTL expire, so a long run of many migrations keeps the table bounded. Time is injected.
#include "migration/forwarding_table.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <random>

namespace drift {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using TimePoint = ForwardingTable::TimePoint;

constexpr std::uint64_t kJob = (std::uint64_t{1} << 32) | 7;
constexpr std::uint64_t kOtherJob = (std::uint64_t{2} << 32) | 7;
const TimePoint kT0{};  // the clock's epoch; the tests only add to it

TEST(ForwardingTableTest, EmptyTableFindsNothingAndForwardsNothing) {
  ForwardingTable table;
  EXPECT_EQ(table.find(TaskId{kJob, 0}), nullptr);
  EXPECT_FALSE(table.forwarded(TaskId{kJob, 0}, 2, kT0));
  EXPECT_EQ(table.size(), 0u);
}

TEST(ForwardingTableTest, AddRemembersDestinationAndEpoch) {
  ForwardingTable table;
  const TaskId t{kJob, 3};
  table.add(t, 4, 1, kT0);
  ForwardingPointer* p = table.find(t);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->dest, 4u);
  EXPECT_EQ(p->epoch, 1u);
  EXPECT_EQ(p->forwarded, 0u);
  EXPECT_TRUE(p->told.empty());
  EXPECT_EQ(table.find(TaskId{kJob, 2}), nullptr);
  EXPECT_EQ(table.find(TaskId{kOtherJob, 3}), nullptr);
}

TEST(ForwardingTableTest, NewerPointerReplacesOlder) {
  ForwardingTable table;
  const TaskId t{kJob, 0};
  table.add(t, 2, 1, kT0);
  table.forwarded(t, 3, kT0);
  table.add(t, 4, 3, kT0 + seconds(1));
  ForwardingPointer* p = table.find(t);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->dest, 4u);
  EXPECT_EQ(p->epoch, 3u);
  EXPECT_EQ(p->forwarded, 1u) << "the count of forwarded messages survives a newer pointer";
  EXPECT_EQ(table.size(), 1u);
}

TEST(ForwardingTableTest, OlderOrEqualPointerIsIgnored) {
  ForwardingTable table;
  const TaskId t{kJob, 0};
  table.add(t, 4, 3, kT0);
  table.add(t, 2, 2, kT0 + seconds(1));
  table.add(t, 5, 3, kT0 + seconds(2));
  ForwardingPointer* p = table.find(t);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->dest, 4u);
  EXPECT_EQ(p->epoch, 3u);
  EXPECT_EQ(p->last_used, kT0) << "an ignored add must not keep the pointer alive";
}

TEST(ForwardingTableTest, TellsEachSenderNodeOncePerEpoch) {
  ForwardingTable table;
  const TaskId t{kJob, 5};
  table.add(t, 4, 1, kT0);
  EXPECT_TRUE(table.forwarded(t, 2, kT0));
  EXPECT_FALSE(table.forwarded(t, 2, kT0));
  EXPECT_TRUE(table.forwarded(t, 3, kT0));
  EXPECT_FALSE(table.forwarded(t, 3, kT0));
  EXPECT_FALSE(table.forwarded(t, 2, kT0));
  EXPECT_EQ(table.find(t)->forwarded, 5u) << "every message is counted, told or not";
}

TEST(ForwardingTableTest, NeverTellsTheDestination) {
  // The destination forwarding back through us would learn of its own task: pointless traffic.
  ForwardingTable table;
  const TaskId t{kJob, 5};
  table.add(t, 4, 1, kT0);
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(table.forwarded(t, 4, kT0));
  EXPECT_EQ(table.find(t)->forwarded, 3u);
  EXPECT_TRUE(table.find(t)->told.empty());
}

TEST(ForwardingTableTest, ANewerEpochTellsEverySenderAgain) {
  ForwardingTable table;
  const TaskId t{kJob, 1};
  table.add(t, 3, 1, kT0);
  EXPECT_TRUE(table.forwarded(t, 2, kT0));
  table.add(t, 4, 2, kT0);  // the task moved on: node 2 knows a stale place
  EXPECT_TRUE(table.forwarded(t, 2, kT0));
  EXPECT_FALSE(table.forwarded(t, 2, kT0));
  EXPECT_TRUE(table.forwarded(t, 3, kT0)) << "node 3 is no longer the destination";
  EXPECT_FALSE(table.forwarded(t, 4, kT0));
}

TEST(ForwardingTableTest, RemoveDropsThePointer) {
  ForwardingTable table;
  const TaskId t{kJob, 1};
  table.add(t, 3, 1, kT0);
  table.remove(t);  // the task came back
  EXPECT_EQ(table.find(t), nullptr);
  table.remove(t);
  EXPECT_FALSE(table.forwarded(t, 2, kT0));
  // A later move away starts a fresh pointer (no stale epoch blocks it).
  table.add(t, 2, 2, kT0);
  EXPECT_EQ(table.find(t)->dest, 2u);
}

TEST(ForwardingTableTest, ExpireDropsOnlyUnusedPointers) {
  ForwardingTable table;
  const TaskId quiet{kJob, 0}, busy{kJob, 1};
  table.add(quiet, 2, 1, kT0);
  table.add(busy, 3, 1, kT0);
  const milliseconds ttl(30000);
  table.forwarded(busy, 4, kT0 + seconds(20));  // use refreshes the pointer
  EXPECT_EQ(table.expire(kT0 + seconds(29), ttl), 0u);
  EXPECT_EQ(table.expire(kT0 + seconds(30), ttl), 1u) << "unused for exactly the TTL";
  EXPECT_EQ(table.find(quiet), nullptr);
  ASSERT_NE(table.find(busy), nullptr);
  EXPECT_EQ(table.expire(kT0 + seconds(49), ttl), 0u);
  EXPECT_EQ(table.expire(kT0 + seconds(50), ttl), 1u);
  EXPECT_EQ(table.size(), 0u);
}

TEST(ForwardingTableTest, MemoryStaysBoundedOverALongRunOfMigrations) {
  // Two hours of a 4096-task job on 8 nodes: every 10 ms some task moves, and senders keep using
  // a pointer for up to 500 ms after its move (then they have the update). Sweeping every second,
  // as the daemon does, holds the table to the pointers used within the last TTL plus one sweep
  // period — a few hundred — however many moves there were; without expiry it would grow to one
  // pointer per task ever moved.
  constexpr std::uint32_t kTasks = 4096;
  constexpr std::uint32_t kNodes = 8;
  const milliseconds ttl(2000);
  const milliseconds step(10);
  const milliseconds late_window(500);
  const auto run = std::chrono::hours(2);
  std::mt19937_64 rng(42);
  ForwardingTable table;
  std::vector<std::uint64_t> epoch(kTasks, 0);
  std::deque<std::pair<TaskId, TimePoint>> recent;  // moves senders may still be behind on
  std::size_t largest = 0;
  std::uint64_t moves = 0, expired = 0, late = 0;
  TimePoint last_sweep = kT0;
  for (TimePoint now = kT0; now - kT0 < run; now += step) {
    const TaskId t{kJob, static_cast<std::uint32_t>(rng() % kTasks)};
    table.add(t, static_cast<std::uint32_t>(1 + rng() % kNodes), ++epoch[t.index], now);
    recent.emplace_back(t, now);
    ++moves;
    while (now - recent.front().second > late_window) recent.pop_front();
    for (int k = 0; k < 3; ++k) {
      const TaskId target = recent[rng() % recent.size()].first;
      table.forwarded(target, static_cast<std::uint32_t>(1 + rng() % kNodes), now);
      ++late;
    }
    if (now - last_sweep >= seconds(1)) {
      expired += table.expire(now, ttl);
      last_sweep = now;
    }
    largest = std::max(largest, table.size());
  }
  EXPECT_EQ(moves, 720'000u);
  EXPECT_EQ(late, 3 * moves);
  EXPECT_GT(expired, moves / 2) << "most moves' pointers were dropped by expiry";
  const std::size_t bound = (late_window + ttl + seconds(1)) / step + 1;  // 351
  EXPECT_LE(largest, bound);
  EXPECT_LT(largest, std::size_t{kTasks} / 8) << "far below one pointer per task";
  table.expire(kT0 + run + ttl, ttl);
  EXPECT_EQ(table.size(), 0u) << "an idle table empties after the TTL";
}

TEST(ForwardingTableTest, ExpireBoundsATableOfManyDistinctTasks) {
  // Many short jobs: pointers for distinct tasks pile up unless they expire.
  ForwardingTable table;
  const milliseconds ttl(1000);
  std::size_t largest = 0;
  TimePoint now = kT0;
  for (std::uint64_t job = 1; job <= 10'000; ++job) {
    for (std::uint32_t i = 0; i < 10; ++i) table.add(TaskId{job, i}, 2, 1, now);
    now += milliseconds(100);
    table.expire(now, ttl);
    largest = std::max(largest, table.size());
  }
  EXPECT_LE(largest, 100u) << "about ttl / 100 ms jobs' worth of pointers";
}

TEST(ForwardingTableTest, DropJobForgetsOnlyThatJob) {
  ForwardingTable table;
  table.add(TaskId{kJob, 0}, 2, 1, kT0);
  table.add(TaskId{kJob, 9}, 3, 4, kT0);
  table.add(TaskId{kOtherJob, 0}, 2, 1, kT0);
  table.drop_job(kJob);
  EXPECT_EQ(table.find(TaskId{kJob, 0}), nullptr);
  EXPECT_EQ(table.find(TaskId{kJob, 9}), nullptr);
  ASSERT_NE(table.find(TaskId{kOtherJob, 0}), nullptr);
  EXPECT_EQ(table.size(), 1u);
  EXPECT_EQ(table.all().begin()->first, (TaskId{kOtherJob, 0}));
}

}  // namespace
}  // namespace drift
