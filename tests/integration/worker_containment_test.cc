// Workers run contained: at nice 19 and SCHED_IDLE, as another user without new privileges or
// supplementary groups, all in one CPU cgroup of their daemon at the lowest weight, which the
// daemon removes when it stops (and a dead daemon's leftover group when it starts).
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "tests/integration/worker_fixture.h"

namespace fs = std::filesystem;

namespace drift::test {
namespace {


TEST_F(WorkerTest, WorkersRunAtIdlePriorityInTheirDaemonsIdleCpuCgroup) {
  // The guests' group a daemon killed with SIGKILL left behind (its pid runs no more), in the
  // cgroup our daemon will run in: the daemon removes it when it starts.
  const std::string own_group = cpu_cgroup_of(::getpid());
  const fs::path cpu_mount = fs::exists("/sys/fs/cgroup/cpu/cgroup.procs") ? "/sys/fs/cgroup/cpu"
                                                                           : "/sys/fs/cgroup";
  pid_t gone = ::fork();
  if (gone == 0) ::_exit(0);
  ASSERT_GT(gone, 0);
  ::waitpid(gone, nullptr, 0);
  const fs::path leftover =
      cpu_mount / (own_group == "/" ? "" : own_group.substr(1)) /
      ("drift-9-" + std::to_string(gone) + "-guests");
  std::error_code ec;
  const bool made_leftover = fs::create_directory(leftover, ec);
  ASSERT_NO_FATAL_FAILURE(start(1, 38));
  if (made_leftover) {
    EXPECT_FALSE(fs::exists(leftover)) << leftover << " was left in place";
  }
  const pid_t daemon = cluster().pid(1);
  const std::string daemon_group = cpu_cgroup_of(daemon);
  const std::string guests = "/drift-1-" + std::to_string(daemon) + "-guests";
  const fs::path mount = fs::exists("/sys/fs/cgroup/cpu/cgroup.procs") ? "/sys/fs/cgroup/cpu"
                                                                       : "/sys/fs/cgroup";
  const fs::path guests_dir = mount / (daemon_group == "/" ? guests.substr(1)
                                                           : daemon_group.substr(1) + guests);
  if (::access((mount / daemon_group.substr(1)).c_str(), W_OK) != 0) {
    GTEST_SKIP() << "this test may not make cgroups in " << mount / daemon_group.substr(1);
  }
  ASSERT_TRUE(fs::is_directory(guests_dir)) << guests_dir << " was not made";
  struct Seen {
    pid_t pid = -1;
    std::string group;
    int policy = -1;
    int nice = 0;
    std::set<std::string> environment;
    std::map<std::string, std::string> status;  // /proc/PID/status: Uid, Gid, Groups, NoNewPrivs
  } seen;
  JobSpec spec = ctl::job_spec("heat2d", 2, 200, {{"size", "256x256"}});
  auto connection = connect(1);
  ASSERT_NE(connection, nullptr);
  auto end = ctl::run_job(
      *connection, spec,
      [&](const JobProgress& p) {
        if (seen.pid > 0 || p.step < 20) return;
        auto workers = workers_of(daemon);
        if (workers.empty()) return;
        seen.pid = *workers.begin();
        seen.group = cpu_cgroup_of(seen.pid);
        seen.policy = ::sched_getscheduler(seen.pid);
        errno = 0;
        seen.nice = ::getpriority(PRIO_PROCESS, static_cast<id_t>(seen.pid));
        std::ifstream environ_file("/proc/" + std::to_string(seen.pid) + "/environ");
        for (std::string entry; std::getline(environ_file, entry, '\0');) {
          seen.environment.insert(entry);
        }
        std::ifstream status_file("/proc/" + std::to_string(seen.pid) + "/status");
        for (std::string line; std::getline(status_file, line);) {
          const auto colon = line.find(':');
          if (colon == std::string::npos) continue;
          const auto value = line.find_first_not_of(" \t", colon + 1);
          seen.status[line.substr(0, colon)] = value == std::string::npos ? "" : line.substr(value);
        }
      },
      ctl::Clock::now() + std::chrono::seconds(60));
  ASSERT_TRUE(end.is_ok()) << end.error();
  ASSERT_TRUE(std::holds_alternative<JobResult>(*end)) << std::get<JobFailed>(*end).reason;
  ASSERT_GT(seen.pid, 0) << "no worker was seen";
  // Its CPU cgroup is the guests' one (on cgroup v2 its memory cgroup inside it).
  EXPECT_TRUE(seen.group.find(guests) != std::string::npos) << seen.group;
  EXPECT_EQ(seen.policy, SCHED_IDLE);
  EXPECT_EQ(seen.nice, 19);
  // No new privileges; under a root daemon another user's real, effective, saved and file-system
  // ids, and no supplementary groups.
  EXPECT_EQ(seen.status["NoNewPrivs"], "1");
  if (::geteuid() == 0) {
    for (const char* ids : {"Uid", "Gid"}) {
      std::istringstream in(seen.status[ids]);
      std::vector<long> values{std::istream_iterator<long>(in), std::istream_iterator<long>()};
      ASSERT_EQ(values.size(), 4u) << ids << ": " << seen.status[ids];
      EXPECT_NE(values[0], 0) << ids << ": " << seen.status[ids];
      EXPECT_EQ(std::set<long>(values.begin(), values.end()).size(), 1u)
          << ids << ": " << seen.status[ids];
    }
    EXPECT_EQ(seen.status["Groups"], "") << "supplementary groups: " << seen.status["Groups"];
  }
  // worker.huge_pages (default true): glibc's malloc asks for transparent huge pages.
  EXPECT_TRUE(seen.environment.count("GLIBC_TUNABLES=glibc.malloc.hugetlb=1"))
      << "the worker's environment has no GLIBC_TUNABLES=glibc.malloc.hugetlb=1";
  std::ifstream idle(guests_dir / "cpu.idle"), shares(guests_dir / "cpu.shares");
  int idle_value = 0, shares_value = 0;
  idle >> idle_value;
  shares >> shares_value;
  EXPECT_TRUE(idle_value == 1 || shares_value == 2) << "cpu.idle " << idle_value << ", cpu.shares "
                                                    << shares_value;
  cluster().down();
  EXPECT_FALSE(fs::exists(guests_dir)) << guests_dir << " outlived its daemon";
}

}  // namespace
}  // namespace drift::test
