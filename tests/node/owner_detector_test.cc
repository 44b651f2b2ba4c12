// The owner detector's reading of the system (node/owner/owner_detector.h), pointed at a fake /dev,
// utmp and logind directory in a temp dir, with file times set explicitly.
#include "node/owner/owner_detector.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <utmp.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace drift {
namespace {

namespace fs = std::filesystem;
using WallClock = std::chrono::system_clock;

constexpr double kNow = 1'700'000'000;  // a wall-clock time, seconds since the epoch

WallClock::time_point wall(double s) {
  return WallClock::time_point(
      std::chrono::duration_cast<WallClock::duration>(std::chrono::duration<double>(s)));
}

class OwnerDetectorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "drift-owner-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    root_ = pattern;
    paths_.utmp = root_ / "utmp";
    paths_.logind_sessions = root_ / "sessions";
    paths_.dev = root_ / "dev";
    paths_.input_devices = root_ / "dev" / "input";
    fs::create_directories(paths_.dev / "pts");
    fs::create_directories(paths_.input_devices);
  }
  void TearDown() override { fs::remove_all(root_); }

  // Creates `p` with access and modification time `t` (seconds since the epoch).
  static void touch(const fs::path& p, double t) {
    std::ofstream(p, std::ios::app).flush();
    timespec times[2];
    times[0].tv_sec = times[1].tv_sec = static_cast<time_t>(t);
    times[0].tv_nsec = times[1].tv_nsec = 0;
    ASSERT_EQ(::utimensat(AT_FDCWD, p.c_str(), times, 0), 0) << p;
  }

  void write_utmp(const std::vector<const char*>& user_lines) {
    std::ofstream out(paths_.utmp, std::ios::binary | std::ios::trunc);
    for (const char* line : user_lines) {
      utmp r{};
      r.ut_type = USER_PROCESS;
      std::strncpy(r.ut_line, line, sizeof r.ut_line);
      out.write(reinterpret_cast<const char*>(&r), sizeof r);
    }
  }

  OwnerDetector detector(OwnerInputs inputs, double load = 0.25) {
    return OwnerDetector(inputs, [load] { return load; }, paths_);
  }

  fs::path root_;
  OwnerDetector::Paths paths_;
};

TEST_F(OwnerDetectorTest, SessionIdleIsFromTheMostRecentlyUsedTerminal) {
  write_utmp({"pts/0", "pts/1"});
  touch(paths_.dev / "pts" / "0", kNow - 500);
  touch(paths_.dev / "pts" / "1", kNow - 30);  // an SSH session typed in 30 s ago
  OwnerInputs in;
  in.input_devices = false;
  auto r = detector(in).read(wall(kNow));
  ASSERT_TRUE(r.session_idle_s);
  EXPECT_NEAR(*r.session_idle_s, 30, 1e-6);
  EXPECT_NEAR(r.idle_s(), 30, 1e-6);
  EXPECT_DOUBLE_EQ(r.external_load, 0.25);
}

TEST_F(OwnerDetectorTest, LogindSessionsAreUsedWhenThereIsNoUtmp) {
  fs::create_directories(paths_.logind_sessions);
  std::ofstream(paths_.logind_sessions / "3") << "UID=1000\nTTY=tty2\n";
  std::ofstream(paths_.logind_sessions / "4") << "UID=1000\nTYPE=x11\n";
  touch(paths_.dev / "tty2", kNow - 12);
  OwnerInputs in;
  in.input_devices = false;
  auto r = detector(in).read(wall(kNow));
  ASSERT_TRUE(r.session_idle_s);
  EXPECT_NEAR(*r.session_idle_s, 12, 1e-6);
}

TEST_F(OwnerDetectorTest, HeadlessMachineHasNoSessionIdleButUsesTheOtherInputs) {
  touch(root_ / "activity", kNow - 4);
  OwnerInputs in;
  in.activity_file = (root_ / "activity").string();
  in.input_devices = false;
  auto d = detector(in);
  auto r = d.read(wall(kNow));
  EXPECT_EQ(r.session_idle_s, std::nullopt);
  ASSERT_TRUE(r.file_idle_s);
  EXPECT_NEAR(r.idle_s(), 4, 1e-6);
  EXPECT_NEAR(d.read(wall(kNow + 1)).idle_s(), 5, 1e-6);  // and again, without failing
}

TEST_F(OwnerDetectorTest, ActivityFileThatDoesNotExistYetSaysNothing) {
  OwnerInputs in;
  in.sessions = false;
  in.input_devices = false;
  in.activity_file = (root_ / "not-yet").string();
  auto r = detector(in).read(wall(kNow));
  EXPECT_EQ(r.file_idle_s, std::nullopt);
  EXPECT_TRUE(std::isinf(r.idle_s()));
}

TEST_F(OwnerDetectorTest, InputDevicesCountOnlyEventAndMouseNodes) {
  touch(paths_.input_devices / "event3", kNow - 8);
  touch(paths_.input_devices / "mice", kNow - 20);
  touch(paths_.input_devices / "js0", kNow - 1);  // a joystick: not the owner's keyboard
  OwnerInputs in;
  in.sessions = false;
  auto r = detector(in).read(wall(kNow));
  ASSERT_TRUE(r.device_idle_s);
  EXPECT_NEAR(*r.device_idle_s, 8, 1e-6);
}

TEST_F(OwnerDetectorTest, SwitchedOffInputsAreNotRead) {
  write_utmp({"pts/0"});
  touch(paths_.dev / "pts" / "0", kNow - 1);
  touch(paths_.input_devices / "event0", kNow - 1);
  OwnerInputs in;
  in.sessions = false;
  in.input_devices = false;
  in.load = false;
  auto r = detector(in, 3.0).read(wall(kNow));
  EXPECT_EQ(r.session_idle_s, std::nullopt);
  EXPECT_EQ(r.device_idle_s, std::nullopt);
  EXPECT_EQ(r.external_load, 0);
  EXPECT_TRUE(std::isinf(r.idle_s()));
}

}  // namespace
}  // namespace drift
