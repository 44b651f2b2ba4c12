// JobGrain: the root's record of spare tasks and the splits and merges it announces.
#include "node/jobs/job_grain.h"

#include <gtest/gtest.h>

#include <map>

namespace drift {
namespace {

// Tasks 0-3 hold work on nodes 1 and 2; tasks 4-7 are spare, two on each node.
const std::map<std::uint32_t, std::uint32_t> kWhere{{0, 1}, {1, 1}, {2, 2}, {3, 2},
                                                    {4, 1}, {5, 2}, {6, 1}, {7, 2}};
std::uint32_t where(std::uint32_t task) { return kWhere.at(task); }

TEST(JobGrain, TheLastTasksStartSpare) {
  JobGrain g(8, 4);
  for (std::uint32_t t = 0; t < 4; ++t) EXPECT_FALSE(g.spare(t));
  for (std::uint32_t t = 4; t < 8; ++t) EXPECT_TRUE(g.spare(t));
  EXPECT_TRUE(g.take(0, where).empty());
}

TEST(JobGrain, ASplitTakesASpareTaskOnTheDestinationElseOnTheTasksNode) {
  JobGrain g(8, 4);
  g.request({GrainKind::kSplit, 0, 0}, 2);  // task 0 on node 1, half meant for node 2
  g.request({GrainKind::kSplit, 3, 0}, 9);  // no spare on node 9: one on node 2, task 3's
  auto changes = g.take(5, where);
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_EQ(changes[0], (GrainChange{GrainKind::kSplit, 0, 5}));
  EXPECT_EQ(changes[1], (GrainChange{GrainKind::kSplit, 3, 7}));
  EXPECT_FALSE(g.spare(5));
  EXPECT_FALSE(g.spare(7));
  EXPECT_EQ(g.splits(), 2u);
  EXPECT_TRUE(g.take(6, where).empty()) << "requests are used once";
}

TEST(JobGrain, NoTaskIsNamedTwiceInOneStepAndSpareTasksCannotSplit) {
  JobGrain g(8, 4);
  g.request({GrainKind::kSplit, 4, 0}, 1);      // spare: dropped
  g.request({GrainKind::kSplit, 1, 0}, 1);
  g.request({GrainKind::kMerge, 1, 0}, 0);      // task 1 already named
  g.request({GrainKind::kMerge, 2, 2}, 0);      // with itself: dropped
  g.request({GrainKind::kMerge, 2, 12}, 0);     // outside the job: dropped
  auto changes = g.take(0, where);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].task, 1u);
}

TEST(JobGrain, AMergeMakesThePartnerSpareAgain) {
  JobGrain g(8, 4);
  g.request({GrainKind::kMerge, 0, 1}, 0);
  auto changes = g.take(3, where);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_TRUE(g.spare(1));
  EXPECT_EQ(g.merges(), 1u);
  g.request({GrainKind::kSplit, 2, 0}, 1);  // node 1's lowest spare is now task 1
  EXPECT_EQ(g.take(4, where)[0].partner, 1u);
}

TEST(JobGrain, WithoutSpareTasksASplitIsDropped) {
  JobGrain g(4, 0);
  g.request({GrainKind::kSplit, 0, 0}, 2);
  EXPECT_TRUE(g.take(0, where).empty());
}

TEST(JobGrain, ARollbackKeepsTheChangesOfItsStepAndForgetsLaterOnes) {
  JobGrain g(8, 4);
  g.request({GrainKind::kSplit, 0, 0}, 2);
  g.take(3, where);  // 0 -> 5
  g.request({GrainKind::kSplit, 1, 0}, 1);
  g.take(7, where);  // 1 -> 4
  g.request({GrainKind::kSplit, 2, 0}, 1);
  g.take(9, where);  // 2 -> 6
  g.request({GrainKind::kSplit, 3, 0}, 2);
  g.rollback(7);  // step 7's reduction goes again, with its change; the queue is dropped
  EXPECT_EQ(g.at(7), (std::vector<GrainChange>{{GrainKind::kSplit, 1, 4}}));
  EXPECT_TRUE(g.at(9).empty());
  EXPECT_FALSE(g.spare(5));
  EXPECT_FALSE(g.spare(4));
  EXPECT_TRUE(g.spare(6));
  EXPECT_EQ(g.splits(), 2u);
  EXPECT_TRUE(g.take(8, where).empty());
  g.rollback(std::nullopt);
  EXPECT_TRUE(g.spare(5));
  EXPECT_TRUE(g.spare(4));
  EXPECT_EQ(g.splits(), 0u);
}

TEST(JobGrain, ANewRootAdoptsTheHistoryUpToTheCommittedStep) {
  JobGrain g(8, 4);
  g.request({GrainKind::kSplit, 0, 0}, 2);
  g.take(3, where);  // 0 -> 5
  g.request({GrainKind::kMerge, 0, 5}, 0);
  g.take(6, where);
  g.request({GrainKind::kSplit, 1, 0}, 1);
  g.take(8, where);  // 1 -> 4
  const auto record = g.history(6);
  ASSERT_EQ(record.size(), 2u);
  EXPECT_EQ(record[1].step, 6u);
  JobGrain next(8, 4);
  next.adopt(record);
  EXPECT_TRUE(next.spare(5));
  EXPECT_TRUE(next.spare(4));
  EXPECT_EQ(next.at(6), (std::vector<GrainChange>{{GrainKind::kMerge, 0, 5}}));
  EXPECT_EQ(next.splits(), 1u);
  EXPECT_EQ(next.merges(), 1u);
}

TEST(JobGrain, StirAsksForSplitsAndMergesUndoingThem) {
  JobGrain g(8, 4);
  std::uint64_t x = 1;
  auto random = [&] { return x = x * 6364136223846793005ULL + 1442695040888963407ULL; };
  std::uint32_t merges = 0;
  for (std::uint64_t step = 0; step < 40; ++step) {
    g.stir(2, random);
    for (const GrainChange& c : g.take(step, where)) {
      EXPECT_LT(c.partner, 8u);
      if (c.kind == GrainKind::kMerge) ++merges;
    }
  }
  EXPECT_GT(g.splits(), 0u);
  EXPECT_GT(merges, 0u);
}

}  // namespace
}  // namespace drift
