// Workers run contained: at nice 19 and SCHED_IDLE, as another user without new privileges or
// supplementary groups, all in one CPU cgroup of their daemon at the lowest weight, which the
// daemon removes when it stops (and a dead daemon's leftover group when it starts).
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <thread>
#include <sstream>
#include <vector>

#include "ctl/job_control.h"
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

// The real, effective, saved and file-system ids of /proc/PID/status's line `ids` ("Uid").
std::vector<long> ids_of(pid_t pid, const char* ids) {
  std::ifstream status_file("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status_file, line);) {
    if (!line.starts_with(std::string(ids) + ":")) continue;
    std::istringstream in(line.substr(line.find(':') + 1));
    return {std::istream_iterator<long>(in), std::istream_iterator<long>()};
  }
  return {};
}

// The text after "KEY:" in /proc/PID/status, without its blanks.
std::string status_line(pid_t pid, const char* key) {
  std::ifstream status_file("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status_file, line);) {
    if (!line.starts_with(std::string(key) + ":")) continue;
    std::string value = line.substr(line.find(':') + 1);
    std::erase_if(value, [](char c) { return c == ' ' || c == '\t'; });
    return value;
  }
  return "?";
}

// Two jobs of heat2d (endless) submitted; their workers, children of `daemon`, once both run.
Result<std::set<pid_t>> two_jobs_workers(ctl::ClientConnection& connection, pid_t daemon) {
  const JobSpec spec = ctl::job_spec("heat2d", 2, 1000000, {{"size", "64x64"}});
  for (int i = 0; i < 2; ++i) {
    auto accepted = ctl::submit_job(connection, spec, ctl::Clock::now() + std::chrono::seconds(30));
    if (!accepted) return accepted.status();
  }
  std::set<pid_t> workers;
  const bool seen = poll_until(std::chrono::seconds(30), std::chrono::milliseconds(20), [&] {
    workers = workers_of(daemon);
    return workers.size() >= 2;
  });
  if (!seen) return Status::error("two jobs' workers were not seen");
  return workers;
}

// Two users' jobs on one node: under a root daemon their workers run as two user ids of
// worker.job_uids' range, neither of them the other's or driftd's, so neither may signal the
// other or read its memory; and every worker is not dumpable (its /proc files, all but the
// directory, belong to root), which keeps its memory from any process of its own uid too.
TEST_F(WorkerTest, EachJobsWorkersRunAsAUserOfTheirOwn) {
  if (::geteuid() != 0) GTEST_SKIP() << "worker.job_uids needs driftd to run as root";
  ASSERT_NO_FATAL_FAILURE(start(1, 66, {"--worker.job_uids=2100000000-2100000009"}));
  auto connection = connect(1);
  ASSERT_NE(connection, nullptr);
  auto workers = two_jobs_workers(*connection, cluster().pid(1));
  ASSERT_TRUE(workers.is_ok()) << workers.error();
  std::set<long> uids;
  for (pid_t w : *workers) {
    // Its first act as a worker (run_worker), moments after it was seen (perhaps before it ran
    // its executable, with driftd's ids still).
    struct stat proc {};
    // (Sanitized builds' workers stay dumpable: LeakSanitizer ptraces its own threads.)
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    constexpr bool kDumpable = true;
#else
    constexpr bool kDumpable = false;
#endif
    const bool guarded = poll_until(std::chrono::seconds(10), std::chrono::milliseconds(20), [&] {
      return ::stat(("/proc/" + std::to_string(w) + "/mem").c_str(), &proc) == 0 &&
             (kDumpable || proc.st_uid == 0) && ids_of(w, "Uid").size() == 4 &&
             ids_of(w, "Uid")[0] != 0;
    });
    EXPECT_TRUE(guarded) << "worker " << w << " is dumpable or runs as root: its /proc files "
                         << "are uid " << proc.st_uid << "'s";
    const auto uid = ids_of(w, "Uid"), gid = ids_of(w, "Gid");
    ASSERT_EQ(uid.size(), 4u) << "worker " << w;
    EXPECT_EQ(std::set<long>(uid.begin(), uid.end()).size(), 1u) << "worker " << w;
    EXPECT_GE(uid[0], 2100000000) << "worker " << w;
    EXPECT_LE(uid[0], 2100000009) << "worker " << w;
    EXPECT_EQ(gid, uid) << "worker " << w << ": its group is not its user's number";
    uids.insert(uid[0]);
  }
  EXPECT_EQ(uids.size(), 2u) << "both jobs' workers run as one user";
}

// The packaged service's way (packaging/driftd.service): driftd as an unprivileged user with
// CAP_SETUID, CAP_SETGID and CAP_KILL only still gives each job's workers a uid of their own, and
// they hold no capability and no group, so they may not read the daemon's secret.
TEST_F(WorkerTest, ADaemonWithJustTheCapabilitiesGivesEachJobAUidAndNoCapability) {
  if (::geteuid() != 0) GTEST_SKIP() << "starting driftd as another user needs root";
  if (::access("/usr/bin/setpriv", X_OK) != 0) GTEST_SKIP() << "needs /usr/bin/setpriv";
  constexpr long kDaemonUid = 2099999990;  // no passwd entry: questions go to nobody
  const std::string id = std::to_string(kDaemonUid);
  // Its applications from a copy in its own directory: the build tree may lie below a folder
  // only root may search (a clone in mktemp -d's 0700 folder).
  const std::filesystem::path apps = dir_ / "apps";
  std::filesystem::copy(bin_dir() / ".." / "lib" / "drift" / "apps", apps,
                        std::filesystem::copy_options::recursive);
  launchers_[1] = {"/bin/sh", "-c",
                   "chown -R " + id + ":" + id + " '" + dir_.string() + "' && exec " +
                       "/usr/bin/setpriv --reuid=" + id + " --regid=" + id + " --clear-groups " +
                       "--inh-caps=-all,+setuid,+setgid,+kill " +
                       "--ambient-caps=-all,+setuid,+setgid,+kill " +
                       "--bounding-set=-all,+setuid,+setgid,+kill \"$@\"",
                   "sh"};
  std::vector<std::string> args = {"--worker.job_uids=2100000010-2100000019",
                                   "--worker.apps_path=" + apps.string()};
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  // Not root, it makes no memory cgroup, and RLIMIT_AS leaves no room for a sanitizer's shadow.
  args.push_back("--worker.memory_limit=0");
#endif
  ASSERT_NO_FATAL_FAILURE(start(1, 68, args));
  const pid_t daemon = cluster().pid(1);
  ASSERT_EQ(ids_of(daemon, "Uid"), std::vector<long>(4, kDaemonUid));
  EXPECT_EQ(status_line(daemon, "CapEff"), "00000000000000e0");
  auto connection = connect(1);
  ASSERT_NE(connection, nullptr);
  auto workers = two_jobs_workers(*connection, daemon);
  ASSERT_TRUE(workers.is_ok()) << workers.error();
  std::set<long> uids;
  for (pid_t w : *workers) {
    // Seen moments after its start, perhaps before it switched user.
    EXPECT_TRUE(poll_until(std::chrono::seconds(10), std::chrono::milliseconds(20), [&] {
      const auto uid = ids_of(w, "Uid");
      return uid.size() == 4 && uid[0] != kDaemonUid;
    })) << "worker " << w << " runs as driftd's user";
    const auto uid = ids_of(w, "Uid");
    ASSERT_EQ(uid.size(), 4u) << "worker " << w;
    EXPECT_EQ(std::set<long>(uid.begin(), uid.end()).size(), 1u) << "worker " << w;
    EXPECT_GE(uid[0], 2100000010) << "worker " << w;
    EXPECT_LE(uid[0], 2100000019) << "worker " << w;
    uids.insert(uid[0]);
    for (const char* set : {"CapInh", "CapPrm", "CapEff", "CapAmb"}) {
      EXPECT_EQ(status_line(w, set), "0000000000000000") << "worker " << w << "'s " << set;
    }
    EXPECT_EQ(status_line(w, "Groups"), "") << "worker " << w;
    // Its uid may not read the secret (the daemon's own, 0600).
    const std::string as_it = "/usr/bin/setpriv --reuid=" + std::to_string(uid[0]) +
                              " --regid=" + std::to_string(uid[0]) + " --clear-groups cat '" +
                              cluster().secret_file().string() + "' >/dev/null 2>&1";
    EXPECT_NE(std::system(as_it.c_str()), 0) << "uid " << uid[0] << " may read the secret";
  }
  EXPECT_EQ(uids.size(), 2u) << "both jobs' workers run as one user";
}

}  // namespace
}  // namespace drift::test
