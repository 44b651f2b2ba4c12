// CheckpointStore: copies by task and step; commit drops older steps, rollback drops later ones.
#include "node/recovery/checkpoint_store.h"

#include <gtest/gtest.h>

namespace drift {
namespace {

CheckpointStore::State state_bytes(std::size_t n, std::uint8_t v) {
  return std::make_shared<const std::vector<std::uint8_t>>(n, v);
}

TEST(CheckpointStore, FindsWhatWasPutByTaskAndStep) {
  CheckpointStore store;
  store.put({9, 1}, 10, state_bytes(4, 1));
  store.put({9, 2}, 10, state_bytes(8, 2));
  store.put({9, 1}, 20, state_bytes(16, 3));
  ASSERT_NE(store.find({9, 1}, 10), nullptr);
  EXPECT_EQ(store.find({9, 1}, 10)->size(), 4u);
  EXPECT_EQ(store.find({9, 1}, 20)->at(0), 3);
  EXPECT_EQ(store.find({9, 2}, 20), nullptr);
  EXPECT_EQ(store.find({8, 1}, 10), nullptr);
  EXPECT_EQ(store.bytes(), 28u);
  EXPECT_EQ(store.copies(), 3u);
}

TEST(CheckpointStore, ListsTheJobsItHasCopiesOf) {
  CheckpointStore store;
  EXPECT_TRUE(store.jobs().empty());
  store.put({9, 1}, 10, state_bytes(1, 1));
  store.put({4, 0}, 10, state_bytes(1, 1));
  store.put({9, 2}, 20, state_bytes(1, 1));
  EXPECT_EQ(store.jobs(), (std::vector<std::uint64_t>{4, 9}));
  store.drop_job(4);
  EXPECT_EQ(store.jobs(), (std::vector<std::uint64_t>{9}));
}

TEST(CheckpointStore, CommitDropsOlderStepsOfThatJobOnly) {
  CheckpointStore store;
  store.put({9, 1}, 10, state_bytes(1, 1));
  store.put({9, 1}, 20, state_bytes(1, 1));
  store.put({9, 1}, 30, state_bytes(1, 1));
  store.put({7, 1}, 10, state_bytes(1, 1));
  store.commit(9, 20);
  EXPECT_EQ(store.steps(9), (std::vector<std::uint64_t>{20, 30}));
  EXPECT_EQ(store.steps(7), (std::vector<std::uint64_t>{10}));
}

TEST(CheckpointStore, RollbackDropsLaterStepsAndKeepsTheOneRolledBackTo) {
  CheckpointStore store;
  store.put({9, 1}, 10, state_bytes(1, 1));
  store.put({9, 1}, 20, state_bytes(1, 1));
  store.discard_after(9, 10);
  EXPECT_EQ(store.steps(9), (std::vector<std::uint64_t>{10}));
  store.drop_job(9);
  EXPECT_TRUE(store.steps(9).empty());
  EXPECT_EQ(store.bytes(), 0u);
}

TEST(CheckpointStore, PutReplacesACopyOfTheSameStep) {
  CheckpointStore store;
  store.put({9, 1}, 10, state_bytes(1, 1));
  store.put({9, 1}, 10, state_bytes(5, 2));
  EXPECT_EQ(store.copies(), 1u);
  EXPECT_EQ(store.bytes(), 5u);
}

}  // namespace
}  // namespace drift
