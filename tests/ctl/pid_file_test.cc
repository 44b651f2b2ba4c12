// pid_file and daemon_process: pid files, and spawning and stopping the daemons `local` runs.
#include "ctl/pid_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "ctl/daemon_process.h"

namespace drift::ctl {
namespace {

namespace fs = std::filesystem;

TEST(PidFileTest, RoundTripsAndRefusesGarbage) {
  const fs::path file = fs::temp_directory_path() / ("drift-pid-" + std::to_string(::getpid()));
  ASSERT_TRUE(write_pid_file(file, 4242).is_ok());
  EXPECT_EQ(read_pid_file(file).value(), 4242);
  std::ofstream(file) << "12ab\n";
  auto bad = read_pid_file(file);
  ASSERT_FALSE(bad.is_ok());
  EXPECT_NE(bad.error().find("12ab"), std::string::npos) << bad.error();
  fs::remove(file);
}

TEST(DaemonProcessTest, SpawnsStopsAndReportsExecFailures) {
  const fs::path log = fs::temp_directory_path() / ("drift-spawn-" + std::to_string(::getpid()));
  auto pid = spawn_detached({"/bin/sleep", {"30"}, log, true});
  ASSERT_TRUE(pid.is_ok()) << pid.error();
  EXPECT_TRUE(process_alive(*pid));
  EXPECT_TRUE(process_runs(*pid, "sleep"));
  EXPECT_EQ(stop_process(*pid, std::chrono::seconds(5)), StopOutcome::kTerminated);
  EXPECT_FALSE(process_alive(*pid));
  EXPECT_EQ(stop_process(*pid, std::chrono::seconds(5)), StopOutcome::kNotRunning);

  auto missing = spawn_detached({"/nonexistent/driftd", {}, log, true});
  ASSERT_FALSE(missing.is_ok());
  EXPECT_NE(missing.error().find("/nonexistent/driftd"), std::string::npos) << missing.error();
  fs::remove(log);
}

}  // namespace
}  // namespace drift::ctl
