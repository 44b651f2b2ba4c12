// Ended jobs on disk (node/jobs/job_end_disk.h) and the archive that drops them
// (node/jobs/job_archive.h): what a restarted daemon reads back, and what it throws away.
#include "node/jobs/job_end_disk.h"

#include <gtest/gtest.h>

#include <fstream>

#include "tests/workers/temp_dir.h"

namespace drift {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

JobEntry entry(std::uint64_t job, JobState state) {
  JobEntry e;
  e.job = job;
  e.app = "heat2d";
  e.name = "night";
  e.owner = "alice";
  e.state = state;
  e.step = 200;
  e.steps = 200;
  e.nodes = {1, 2};
  e.root = 1;
  return e;
}

JobResult result(std::uint64_t job) {
  JobResult r;
  r.job = job;
  r.app = "heat2d";
  r.checksum = "b615a6812d24fc70";
  r.steps = 200;
  r.step_s = {0.01, 0.02};
  return r;
}

class JobEndDiskTest : public ::testing::Test {
 protected:
  test::TempDir tmp_;
  fs::path dir_ = fs::path(tmp_.path()) / "jobs";
};

// Ends asked for on the writer thread are on disk once the last holder is gone, however many
// were still queued (a daemon stopping right after its jobs ended).
TEST_F(JobEndDiskTest, EndsQueuedForTheWriterAreWrittenBeforeItGoes) {
  constexpr std::uint64_t kEnds = 200;
  {
    auto disk = JobEndDisk::open(dir_);
    ASSERT_TRUE(disk) << disk.error();
    for (std::uint64_t job = 1; job <= kEnds; ++job) {
      disk->save_later({entry(job, JobState::kDone), result(job), JobEndDisk::WallClock::now()});
    }
    disk->erase_later(kEnds);
  }
  auto again = JobEndDisk::open(dir_);
  ASSERT_TRUE(again) << again.error();
  const auto loaded = again->load(1000);
  EXPECT_TRUE(loaded.problems.empty());
  EXPECT_EQ(loaded.ends.size(), kEnds - 1);
}

TEST_F(JobEndDiskTest, EndsSavedAreLoadedBackOldestFirstWithTheirTimes) {
  auto disk = JobEndDisk::open(dir_);
  ASSERT_TRUE(disk) << disk.error();
  const auto t0 = JobEndDisk::WallClock::now() - 1h;
  ASSERT_TRUE(disk->save({entry(7, JobState::kDone), result(7), t0 + 10min}));
  ASSERT_TRUE(disk->save({entry(5, JobState::kFailed), JobFailed{5, "node 3 died twice"}, t0}));
  const auto loaded = disk->load(100);
  EXPECT_TRUE(loaded.problems.empty());
  ASSERT_EQ(loaded.ends.size(), 2u);
  EXPECT_EQ(loaded.ends[0].entry, entry(5, JobState::kFailed));
  EXPECT_EQ(std::get<JobFailed>(loaded.ends[0].end).reason, "node 3 died twice");
  EXPECT_EQ(loaded.ends[1].entry, entry(7, JobState::kDone));
  EXPECT_EQ(std::get<JobResult>(loaded.ends[1].end), result(7));
  EXPECT_LT(std::chrono::abs(loaded.ends[1].ended - (t0 + 10min)), 1ms);
  disk->erase(7);
  EXPECT_EQ(disk->load(100).ends.size(), 1u);
}

TEST_F(JobEndDiskTest, ForeignDamagedAndHalfWrittenFilesAreRemovedAndNamed) {
  auto disk = JobEndDisk::open(dir_);
  ASSERT_TRUE(disk) << disk.error();
  ASSERT_TRUE(disk->save({entry(9, JobState::kDone), result(9), JobEndDisk::WallClock::now()}));
  std::ofstream(dir_ / "notes.txt") << "hello";
  std::ofstream(dir_ / "000000000000000a.end") << "not an end";
  std::ofstream(dir_ / "000000000000000b.end.partial") << "half";
  // A file that names another job than the one inside it.
  fs::copy_file(dir_ / "0000000000000009.end", dir_ / "000000000000000c.end");
  const auto loaded = disk->load(100);
  ASSERT_EQ(loaded.ends.size(), 1u);
  EXPECT_EQ(loaded.ends[0].entry.job, 9u);
  ASSERT_EQ(loaded.problems.size(), 3u);
  std::string all;
  for (const auto& p : loaded.problems) all += p + "\n";
  EXPECT_NE(all.find("notes.txt: not the end of a job"), std::string::npos) << all;
  EXPECT_NE(all.find("000000000000000a.end: does not decode"), std::string::npos) << all;
  EXPECT_NE(all.find("000000000000000c.end: not a consistent end of job 000000000000000c"),
            std::string::npos)
      << all;
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& f : fs::directory_iterator(dir_)) ++files;
  EXPECT_EQ(files, 1u) << "only the good end stays";
}

TEST_F(JobEndDiskTest, BeyondTheLimitTheOldestGo) {
  auto disk = JobEndDisk::open(dir_);
  ASSERT_TRUE(disk) << disk.error();
  const auto t0 = JobEndDisk::WallClock::now() - 1h;
  for (std::uint64_t job = 1; job <= 4; ++job) {
    ASSERT_TRUE(disk->save({entry(job, JobState::kDone), result(job), t0 + job * 1min}));
  }
  const auto loaded = disk->load(2);
  ASSERT_EQ(loaded.ends.size(), 2u);
  EXPECT_EQ(loaded.ends[0].entry.job, 3u);
  EXPECT_EQ(loaded.ends[1].entry.job, 4u);
  EXPECT_EQ(disk->load(100).ends.size(), 2u);
}

TEST(JobArchiveDrops, EveryEndItDropsIsReportedForgottenOrExpired) {
  JobArchive archive(std::chrono::seconds(60));
  std::vector<std::uint64_t> dropped;
  archive.set_on_drop([&](std::uint64_t job) { dropped.push_back(job); });
  const auto t0 = JobArchive::Clock::now();
  archive.add(entry(1, JobState::kDone), result(1), t0);
  archive.add(entry(2, JobState::kDone), result(2), t0 + 30s);
  EXPECT_TRUE(archive.forget(2));
  EXPECT_EQ(dropped, std::vector<std::uint64_t>{2});
  archive.entries(t0 + 61s);
  EXPECT_EQ(dropped, (std::vector<std::uint64_t>{2, 1}));
  EXPECT_EQ(archive.size(), 0u);
}

}  // namespace
}  // namespace drift
