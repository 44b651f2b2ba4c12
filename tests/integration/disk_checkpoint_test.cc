// Checkpoint copies on disk (checkpoint.disk) with real daemons: copies follow the job's
// checkpoints into node.data_dir/checkpoints and are gone once the job ends; copies a node finds
// there at start-up that no root claims are deleted after checkpoint.disk_wait_ms. (A node
// restarted with copies that save a job is conf/faults/disk-restart.scn, run by CTest.)
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <signal.h>

#include "node/recovery/checkpoint_disk.h"
#include "node/service/durable_file.h"
#include "ctl/job_client.h"
#include "tests/integration/migration_harness.h"
#include "tests/integration/poll.h"

namespace drift::test {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr int kDiskCheckpointSlot = 25;

class DiskCheckpointTest : public MigrationClusterTest {
 protected:
  fs::path checkpoints(int k) const { return dir_ / ("node" + std::to_string(k)) / "checkpoints"; }
  // Copies (files) under node k's checkpoint dir.
  std::size_t files(int k) const { return CheckpointDisk::load(checkpoints(k)).copies.size(); }

};

TEST_F(DiskCheckpointTest, CopiesFollowTheCheckpointsAndGoWhenTheJobEnds) {
  // Emulated machines, so that a step takes ~40 ms and the copies of one checkpoint are written
  // well before the next is committed (a write overtaken by a later commit is skipped).
  ASSERT_NO_FATAL_FAILURE(
      start_nodes(3, kDiskCheckpointSlot,
                  {"--checkpoint.disk=true", "--emulate.speed=1", "--emulate.unit_rate=300000"}));
  JobSpec spec = ctl::job_spec("heat2d", 6, 60, {{"size", "256x256"}});
  spec.runtime["checkpoint_steps"] = "10";
  auto ref = reference_run(spec);
  ASSERT_TRUE(ref) << ref.error();
  BackgroundJob job(connect(1), ref->spec, 60s);
  // While it runs, the copies are on disk: each task's on its node and on its buddy.
  std::size_t most = 0;
  poll_until(60s, 10ms, [&] {
    most = std::max(most, files(1) + files(2) + files(3));
    return most >= 12 || job.done();
  });
  ASSERT_TRUE(job.wait_done(60s)) << "the job did not end";
  EXPECT_TRUE(ended_with_checksum(job.outcome(), ref->checksum));
  EXPECT_GE(most, 12u) << "never saw two copies of each of the 6 tasks on disk";
  EXPECT_TRUE(poll_until(10s, 20ms, [&] { return files(1) + files(2) + files(3) == 0; }))
      << "copies left on disk after the job ended: " << files(1) << " " << files(2) << " "
      << files(3);
  EXPECT_NE(log_of(2).find("checkpoint copies are also kept on disk, in " +
                           checkpoints(2).string()),
            std::string::npos);
}

TEST_F(DiskCheckpointTest, CopiesNoRootClaimsAfterARestartAreDeleted) {
  // What a node killed during a job that has since ended leaves behind.
  auto disk = CheckpointDisk::open(checkpoints(2));
  ASSERT_TRUE(disk) << disk.error();
  (*disk)->write({0x700000001ULL, 4}, 30, std::make_shared<const std::vector<std::uint8_t>>(64, 1));
  (*disk)->flush();
  disk->reset();
  ASSERT_EQ(files(2), 1u);
  ASSERT_NO_FATAL_FAILURE(start_nodes(
      2, kDiskCheckpointSlot + 1, {"--checkpoint.disk=true", "--checkpoint.disk_wait_ms=1500"}));
  EXPECT_NE(log_of(2).find("found 1 copies of 1 job(s)"), std::string::npos) << log_of(2);
  EXPECT_TRUE(poll_until(15s, 50ms, [&] { return files(2) == 0; }))
      << "the unclaimed copy is still on disk";
  EXPECT_TRUE(poll_until(5s, 50ms, [&] {
    return log_of(2).find("no root claimed the 1 checkpoint copies") != std::string::npos;
  })) << log_of(2);
}

// With checkpoint.disk, a job's end is on its root's and its deputy's disks too: both killed
// after the job ended, the root restarted alone still answers with the result; forgetting it
// removes the file.
TEST_F(DiskCheckpointTest, AnEndedJobsResultOutlivesItsRootAndDeputyBothRestarting) {
  ASSERT_NO_FATAL_FAILURE(start_nodes(2, /*slot=*/51, {"--checkpoint.disk=true"}));
  auto ref = reference_run(ctl::job_spec("heat2d", 4, 40, {{"size", "64x64"}}));
  ASSERT_TRUE(ref) << ref.error();
  BackgroundJob job(connect(1), ref->spec, 60s);
  ASSERT_TRUE(job.wait_done(60s)) << "the job did not end";
  ASSERT_TRUE(ended_with_checksum(job.outcome(), ref->checksum));
  const fs::path end_file = dir_ / "node1" / "jobs" / (hex_name(job.id()) + ".end");
  EXPECT_TRUE(poll_until(5s, 20ms, [&] { return fs::exists(end_file); })) << end_file;
  EXPECT_TRUE(poll_until(5s, 20ms, [&] {
    return fs::exists(dir_ / "node2" / "jobs" / (hex_name(job.id()) + ".end"));
  })) << "the deputy did not keep the end on disk";

  ASSERT_TRUE(cluster().kill(2, SIGKILL).is_ok());
  ASSERT_TRUE(cluster().kill(1, SIGKILL).is_ok());
  ASSERT_TRUE(poll_until(10s, 20ms, [&] { return fate_of(1) != "running"; }));
  ASSERT_TRUE(cluster().restart(1).is_ok());
  EXPECT_NE(log_of(1).find("found the ends of 1 job(s) from before this node went down"),
            std::string::npos)
      << log_of(1);
  auto connection = connect(1);
  ASSERT_NE(connection, nullptr);
  auto end = ctl::attach_job(*connection, job.id(), "heat2d", {}, ctl::Clock::now() + 10s);
  ASSERT_TRUE(end.is_ok()) << end.error();
  ASSERT_TRUE(std::holds_alternative<JobResult>(*end));
  EXPECT_EQ(std::get<JobResult>(*end).checksum, ref->checksum);

  auto again = connect(1);
  ASSERT_NE(again, nullptr);
  ASSERT_TRUE(again->send(JobForget{job.id()}).is_ok());
  auto forgotten = again->receive(ctl::Clock::now() + 10s);
  ASSERT_TRUE(forgotten.is_ok()) << forgotten.error();
  EXPECT_TRUE(std::holds_alternative<JobForget>(*forgotten));
  EXPECT_TRUE(poll_until(5s, 20ms, [&] { return !fs::exists(end_file); }))
      << "forgotten, but still on disk";
}

// A file system of its own (ext4 on a loop device) mounted on a node's data dir, which can be
// frozen (fsfreeze): every write to it then blocks until it is thawed, as on a hung disk.
class LoopDisk {
 public:
  explicit LoopDisk(fs::path at) : at_(std::move(at)), image_(at_.string() + ".img") {
    fs::create_directories(at_);
    const std::string make = "truncate -s 128M '" + image_.string() + "' && mkfs.ext4 -q '" +
                             image_.string() + "' && mount -o loop '" + image_.string() + "' '" +
                             at_.string() + "' 2>/dev/null";
    mounted_ = std::system(make.c_str()) == 0;
  }
  ~LoopDisk() {
    thaw();
    if (mounted_) std::system(("umount -l '" + at_.string() + "'").c_str());
    std::error_code ec;
    fs::remove(image_, ec);
  }
  bool mounted() const { return mounted_; }
  bool freeze() { return frozen_ = std::system(("fsfreeze -f '" + at_.string() + "'").c_str()) == 0; }
  void thaw() {
    if (frozen_) std::system(("fsfreeze -u '" + at_.string() + "'").c_str());
    frozen_ = false;
  }

 private:
  fs::path at_, image_;
  bool mounted_ = false, frozen_ = false;
};

// The oldest step of the copies on a node's disk: a commit deletes the steps below it.
std::uint64_t oldest_step(const fs::path& dir) {
  std::uint64_t oldest = 0;
  for (const auto& copy : CheckpointDisk::load(dir).copies) {
    oldest = oldest == 0 ? copy.step : std::min(oldest, copy.step);
  }
  return oldest;
}

// A hung disk (node 2's data dir frozen mid-job) holds no checkpoint back: its copies are
// acknowledged from memory after checkpoint.disk_patience_ms, so the job's checkpoints go on
// committing (node 1's disk drops older steps), its network thread stays free (no node is
// declared dead), and once the disk thaws it catches up and the job ends with the serial
// checksum.
TEST_F(DiskCheckpointTest, AHungDiskHoldsNoCheckpointBack) {
  if (::geteuid() != 0) GTEST_SKIP() << "mounting a loop file system needs root";
  LoopDisk disk(dir_ / "node2");
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount an ext4 image with -o loop here";
  ASSERT_NO_FATAL_FAILURE(start_nodes(
      2, /*slot=*/69,
      {"--checkpoint.disk=true", "--checkpoint.disk_patience_ms=1000", "--emulate.speed=1",
       "--emulate.unit_rate=300000"}));
  JobSpec spec = ctl::job_spec("heat2d", 4, 400, {{"size", "256x256"}});
  spec.runtime["checkpoint_steps"] = "10";
  auto ref = reference_run(spec);
  ASSERT_TRUE(ref) << ref.error();
  BackgroundJob job(connect(1), ref->spec, 120s);
  ASSERT_TRUE(poll_until(60s, 10ms, [&] { return files(2) > 0 && oldest_step(checkpoints(1)) >= 20; }))
      << "no checkpoint reached both disks";
  ASSERT_TRUE(disk.freeze()) << "fsfreeze failed";
  const std::uint64_t frozen_at = oldest_step(checkpoints(1));
  EXPECT_TRUE(poll_until(60s, 20ms, [&] {
    return job.done() || oldest_step(checkpoints(1)) >= frozen_at + 50;
  })) << "checkpoints stopped committing at step " << oldest_step(checkpoints(1))
      << " with node 2's disk frozen at " << frozen_at;
  EXPECT_FALSE(job.done()) << "the job ended before its checkpoints were seen to commit";
  EXPECT_NE(log_of(2).find("acknowledged from memory"), std::string::npos) << log_of(2);
  disk.thaw();
  ASSERT_TRUE(job.wait_done(120s)) << "the job did not end";
  EXPECT_TRUE(ended_with_checksum(job.outcome(), ref->checksum));
  EXPECT_TRUE(poll_until(10s, 50ms, [&] {
    return log_of(2).find("has caught up; copies are written again") != std::string::npos;
  })) << log_of(2);
  // The copies kept in memory only while the disk hung are written once it caught up (while the
  // job still ran): else the disk held no copy of the job until its next checkpoint.
  std::smatch caught_up;
  const std::string log2 = log_of(2);
  ASSERT_TRUE(std::regex_search(log2, caught_up, std::regex(R"(, (\d+) of them still kept and written now)")))
      << log2;
  EXPECT_GT(std::stoul(caught_up[1]), 0u) << caught_up[0];
  EXPECT_EQ(log_of(1).find("declared dead"), std::string::npos) << log_of(1);
  cluster().down();
}

}  // namespace
}  // namespace drift::test
