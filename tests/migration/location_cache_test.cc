// LocationCache: an entry changes only for a newer epoch, so late or reordered location updates
// never point a sender backwards; set_job keeps what moves taught; drop_job forgets a job.
#include "migration/location_cache.h"

#include <gtest/gtest.h>

namespace drift {
namespace {

constexpr std::uint64_t kCachedJob = (std::uint64_t{3} << 32) | 0x1234;
constexpr std::uint64_t kOtherCachedJob = (std::uint64_t{2} << 32) | 0x1;

TEST(LocationCacheTest, UnknownTaskHasNoLocation) {
  LocationCache cache;
  EXPECT_FALSE(cache.lookup(TaskId{kCachedJob, 0}));
  EXPECT_TRUE(cache.job(kCachedJob).empty());
}

TEST(LocationCacheTest, SetJobPlacesEveryTaskAtEpochZero) {
  LocationCache cache;
  cache.set_job(kCachedJob, {1, 2, 2, 4});
  for (std::uint32_t i = 0; i < 4; ++i) {
    auto loc = cache.lookup(TaskId{kCachedJob, i});
    ASSERT_TRUE(loc) << "task " << i;
    EXPECT_EQ(loc->epoch, 0u);
  }
  EXPECT_EQ(cache.lookup(TaskId{kCachedJob, 2})->node, 2u);
  EXPECT_EQ(cache.lookup(TaskId{kCachedJob, 3})->node, 4u);
  EXPECT_FALSE(cache.lookup(TaskId{kCachedJob, 4}));
  EXPECT_EQ(cache.job(kCachedJob).size(), 4u);
}

TEST(LocationCacheTest, NewerEpochWins) {
  LocationCache cache;
  cache.set_job(kCachedJob, {1, 2});
  const TaskId t{kCachedJob, 1};
  EXPECT_TRUE(cache.update(t, 3, 1));
  EXPECT_EQ(cache.lookup(t)->node, 3u);
  EXPECT_TRUE(cache.update(t, 1, 5));  // epochs may skip (a chain collapsed)
  EXPECT_EQ(cache.lookup(t)->node, 1u);
  EXPECT_EQ(cache.lookup(t)->epoch, 5u);
}

TEST(LocationCacheTest, OlderOrEqualEpochIsIgnored) {
  LocationCache cache;
  const TaskId t{kCachedJob, 0};
  EXPECT_TRUE(cache.update(t, 4, 3));
  EXPECT_FALSE(cache.update(t, 2, 2));  // late update of an earlier move
  EXPECT_FALSE(cache.update(t, 2, 3));  // same move reported by a different node
  EXPECT_FALSE(cache.update(t, 1, 0));
  EXPECT_EQ(cache.lookup(t)->node, 4u);
  EXPECT_EQ(cache.lookup(t)->epoch, 3u);
}

TEST(LocationCacheTest, ReorderedUpdatesEndAtTheNewest) {
  // Updates of moves 1..6 of one task arrive in a scrambled order: the last move wins.
  LocationCache cache;
  const TaskId t{kCachedJob, 0};
  cache.set_job(kCachedJob, {1});
  const std::uint64_t order[] = {3, 1, 6, 2, 5, 4};
  for (std::uint64_t epoch : order) cache.update(t, static_cast<std::uint32_t>(10 + epoch), epoch);
  EXPECT_EQ(cache.lookup(t)->node, 16u);
  EXPECT_EQ(cache.lookup(t)->epoch, 6u);
}

TEST(LocationCacheTest, UpdateBeforeSetJobCreatesTheEntry) {
  LocationCache cache;
  const TaskId t{kCachedJob, 7};
  EXPECT_TRUE(cache.update(t, 2, 1));
  EXPECT_EQ(cache.lookup(t)->node, 2u);
}

TEST(LocationCacheTest, SetJobKeepsNewerEntries) {
  // A move's update can overtake CreateTasks (it comes from another node): the placement must not
  // send the task back to where it started.
  LocationCache cache;
  cache.update(TaskId{kCachedJob, 1}, 3, 2);
  cache.set_job(kCachedJob, {1, 1, 2});
  EXPECT_EQ(cache.lookup(TaskId{kCachedJob, 0})->node, 1u);
  EXPECT_EQ(cache.lookup(TaskId{kCachedJob, 1})->node, 3u);
  EXPECT_EQ(cache.lookup(TaskId{kCachedJob, 1})->epoch, 2u);
  EXPECT_EQ(cache.lookup(TaskId{kCachedJob, 2})->node, 2u);
  // Set again (a second node's CreateTasks names the same placement): still kept.
  cache.set_job(kCachedJob, {1, 1, 2});
  EXPECT_EQ(cache.lookup(TaskId{kCachedJob, 1})->node, 3u);
}

TEST(LocationCacheTest, DropJobForgetsOnlyThatJob) {
  LocationCache cache;
  cache.set_job(kCachedJob, {1, 2});
  cache.set_job(kOtherCachedJob, {2, 1});
  cache.update(TaskId{kCachedJob, 0}, 3, 1);
  cache.drop_job(kCachedJob);
  EXPECT_FALSE(cache.lookup(TaskId{kCachedJob, 0}));
  EXPECT_FALSE(cache.lookup(TaskId{kCachedJob, 1}));
  EXPECT_TRUE(cache.job(kCachedJob).empty());
  EXPECT_EQ(cache.lookup(TaskId{kOtherCachedJob, 0})->node, 2u);
  cache.drop_job(kCachedJob);  // twice is harmless
  // A dropped job starts from scratch: an old epoch is accepted again.
  EXPECT_TRUE(cache.update(TaskId{kCachedJob, 0}, 1, 0));
}

TEST(LocationCacheTest, JobListsEveryTaskWithItsLocation) {
  LocationCache cache;
  cache.set_job(kCachedJob, {1, 2, 3});
  cache.update(TaskId{kCachedJob, 2}, 1, 4);
  auto all = cache.job(kCachedJob);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all.at(0).node, 1u);
  EXPECT_EQ(all.at(1).node, 2u);
  EXPECT_EQ(all.at(2).node, 1u);
  EXPECT_EQ(all.at(2).epoch, 4u);
}

TEST(LocationCacheTest, HomeIsTheRootInTheJobIdsUpperHalf) {
  EXPECT_EQ(home_of(kCachedJob), 3u);
  EXPECT_EQ(home_of(kOtherCachedJob), 2u);
  EXPECT_EQ(home_of((std::uint64_t{0xffffffff} << 32) | 0xffffffff), 0xffffffffu);
  EXPECT_EQ(home_of(0x1234), 0u);
}

}  // namespace
}  // namespace drift
