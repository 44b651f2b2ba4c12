// CheckpointDisk: copies written under the data dir come back whole after a "restart" (a new
// object loading the dir); commit, rollback and job end delete what the memory store drops; an
// interrupted write leaves no copy; files that are not copies are reported, not read.
#include "node/recovery/checkpoint_disk.h"

#include "tests/workers/temp_dir.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <fstream>
#include <map>

namespace drift {
namespace {

namespace fs = std::filesystem;

CheckpointDisk::State disk_state(std::size_t n, std::uint8_t v) {
  return std::make_shared<const std::vector<std::uint8_t>>(n, v);
}

class CheckpointDiskTest : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = root_ / "checkpoints"; }

  std::unique_ptr<CheckpointDisk> open() {
    auto disk = CheckpointDisk::open(dir_);
    EXPECT_TRUE(disk.is_ok()) << disk.error();
    return disk ? std::move(disk).value() : nullptr;
  }
  // (job, step, index) -> size, of what a restarted node would find.
  std::map<std::tuple<std::uint64_t, std::uint64_t, std::uint32_t>, std::size_t> found() {
    std::map<std::tuple<std::uint64_t, std::uint64_t, std::uint32_t>, std::size_t> out;
    for (const auto& c : CheckpointDisk::load(dir_).copies) {
      out[{c.task.job, c.step, c.task.index}] = c.state->size();
    }
    return out;
  }

  test::TempDir tmp_;
  const fs::path root_{tmp_.path()};
  fs::path dir_;
};

TEST_F(CheckpointDiskTest, CopiesWrittenComeBackWholeAfterARestart) {
  {
    auto disk = open();
    disk->write({0x500000001ULL, 3}, 40, disk_state(100000, 7));
    disk->write({0x500000001ULL, 4}, 40, disk_state(10, 8));
    disk->write({0x600000002ULL, 0}, 5, disk_state(0, 0));
  }  // the destructor finishes the queued writes
  auto loaded = CheckpointDisk::load(dir_);
  EXPECT_TRUE(loaded.problems.empty());
  EXPECT_EQ(loaded.bytes, 100010u);
  ASSERT_EQ(loaded.copies.size(), 3u);
  auto it = std::find_if(loaded.copies.begin(), loaded.copies.end(),
                         [](const auto& c) { return c.task.index == 3; });
  ASSERT_NE(it, loaded.copies.end());
  EXPECT_EQ(it->task.job, 0x500000001ULL);
  EXPECT_EQ(it->step, 40u);
  EXPECT_EQ(*it->state, std::vector<std::uint8_t>(100000, 7));
  EXPECT_TRUE(fs::exists(dir_ / "0000000500000001" / "40" / "3"));
}

TEST_F(CheckpointDiskTest, CommitRollbackAndJobEndDeleteWhatTheStoreDrops) {
  auto disk = open();
  for (std::uint64_t step : {10, 20, 30}) disk->write({9, 1}, step, disk_state(4, 1));
  disk->write({7, 1}, 10, disk_state(4, 1));
  disk->commit(9, 20);  // steps below 20 go
  disk->flush();
  EXPECT_EQ(found().size(), 3u);
  EXPECT_FALSE(found().count({9, 10, 1}));
  disk->discard_after(9, 20);  // rolled back to 20: 30 goes
  disk->flush();
  EXPECT_TRUE(found().count({9, 20, 1}));
  EXPECT_FALSE(found().count({9, 30, 1}));
  disk->drop_job(9);
  disk->flush();
  EXPECT_EQ(found().size(), 1u);
  EXPECT_TRUE(found().count({7, 10, 1}));
  disk->clear();  // fenced: nothing of ours is trusted
  disk->flush();
  EXPECT_TRUE(found().empty());
  EXPECT_EQ(disk->failures(), 0u);
}

TEST_F(CheckpointDiskTest, AWriteACrashInterruptedIsNoCopyAndIsRemoved) {
  auto disk = open();
  disk->write({9, 1}, 10, disk_state(4, 1));
  disk->flush();
  const fs::path partial = dir_ / "0000000000000009" / "10" / "2.partial";
  std::ofstream(partial) << "half";
  auto loaded = CheckpointDisk::load(dir_);
  EXPECT_EQ(loaded.copies.size(), 1u);
  EXPECT_EQ(loaded.partial_removed, 1u);
  EXPECT_FALSE(fs::exists(partial));
}

TEST_F(CheckpointDiskTest, EntriesThatAreNotCopiesAreNamedAndLeftAlone) {
  auto disk = open();
  disk->write({9, 1}, 10, disk_state(4, 1));
  disk->flush();
  fs::create_directories(dir_ / "notes");
  std::ofstream(dir_ / "0000000000000009" / "10" / "readme.txt") << "x";
  fs::create_directories(dir_ / "0000000000000009" / "ten");
  auto loaded = CheckpointDisk::load(dir_);
  EXPECT_EQ(loaded.copies.size(), 1u);
  ASSERT_EQ(loaded.problems.size(), 3u);
  EXPECT_TRUE(fs::exists(dir_ / "notes"));
  std::string all;
  for (const auto& p : loaded.problems) all += p + "\n";
  EXPECT_NE(all.find("readme.txt"), std::string::npos) << all;
  EXPECT_NE(all.find("ten"), std::string::npos) << all;
}

TEST_F(CheckpointDiskTest, NoDirIsNoCopies) {
  auto loaded = CheckpointDisk::load(root_ / "never-made");
  EXPECT_TRUE(loaded.copies.empty());
  EXPECT_TRUE(loaded.problems.empty());
}

TEST_F(CheckpointDiskTest, ADirThatCannotBeMadeIsAnErrorNamingIt) {
  std::ofstream(root_ / "file") << "x";
  auto disk = CheckpointDisk::open(root_ / "file" / "checkpoints");
  ASSERT_FALSE(disk.is_ok());
  EXPECT_NE(disk.error().find((root_ / "file").string()), std::string::npos) << disk.error();
}

TEST_F(CheckpointDiskTest, AFailedWriteIsCountedNotFatal) {
  auto disk = open();
  // A file where the job's directory should be.
  std::ofstream(dir_ / "0000000000000009") << "x";
  disk->write({9, 1}, 10, disk_state(4, 1));
  disk->flush();
  EXPECT_EQ(disk->failures(), 1u);
  disk->write({8, 1}, 10, disk_state(4, 1));
  disk->flush();
  EXPECT_EQ(disk->failures(), 1u);
  EXPECT_TRUE(found().count({8, 10, 1}));
}

}  // namespace
}  // namespace drift
