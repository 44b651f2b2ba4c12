// Applications run in worker processes (docs/architecture.md §11), and a worker never takes its
// daemon with it: a worker killed mid-job is recovered like a failed node; one that crashes at
// every try ends its job with an error naming the task, the node, the signal and its last words;
// one that hangs is rolled back by the stall watchdog; one over its memory limit is stopped and
// named. An executable whose bytes do not match its hash is refused before anything runs; nodes
// of an architecture a job has no executable for take no task of it, and driftctl names them.
// The daemon's memory and threads do not grow with the jobs it ran. Workers run contained: at
// nice 19 and SCHED_IDLE, all in one CPU cgroup of their daemon at the lowest weight, which goes
// with the daemon.
#include <gtest/gtest.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "ctl/app_executable.h"
#include "ctl/job_client.h"
#include "ctl/job_executables.h"
#include "ctl/tasks_query.h"
#include "node/workers/sha256.h"
#include "protocol/codec.h"
#include "tests/integration/cluster_test_fixture.h"
#include "tests/integration/poll.h"
#include "tests/integration/proc_status.h"

namespace fs = std::filesystem;

namespace drift::test {
namespace {

fs::path faulty() { return fs::path(DRIFT_BUILD_DIR) / "test-apps" / "faulty"; }

// Worker processes of daemon k: its children.
std::set<pid_t> workers_of(pid_t daemon) {
  std::set<pid_t> out;
  std::error_code ec;
  for (const auto& task : fs::directory_iterator("/proc/" + std::to_string(daemon) + "/task", ec)) {
    std::ifstream in(task.path() / "children");
    for (pid_t pid; in >> pid;) out.insert(pid);
  }
  return out;
}

// The cpu line of /proc/PID/cgroup ("/drift-1-77-guests"); empty if none.
std::string cpu_cgroup_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/cgroup");
  for (std::string line; std::getline(in, line);) {
    const auto a = line.find(':'), b = line.find(':', a + 1);
    if (b == std::string::npos) continue;
    const std::string controllers = "," + line.substr(a + 1, b - a - 1) + ",";
    if (controllers.find(",cpu,") != std::string::npos || line.starts_with("0::")) {
      return line.substr(b + 1);
    }
  }
  return "";
}

class WorkerTest : public ClusterTest {
 protected:
  void start(int nodes, int slot, std::vector<std::string> args = {},
             std::map<int, std::vector<std::string>> node_args = {}) {
    ctl::LocalClusterOptions options;
    options.driftd = bin_dir() / "driftd";
    options.stop_with_parent = true;
    options.extra_args = std::move(args);
    options.node_args = std::move(node_args);
    cluster_ = std::make_unique<ctl::LocalCluster>(dir_, options);
    ASSERT_NO_FATAL_FAILURE(start_cluster(nodes, slot));
    wait_for_load_reports(1);
  }

  struct Run {
    Result<ctl::JobEndMessage> end = Status::error("not run");
    std::vector<JobNotice> notices;
  };

  // `spec` of the executable at `path`, shipped with the job as a user's own is, submitted to
  // node 1; `during` runs once the job has made `after` steps.
  Run run_own(const fs::path& path, JobSpec spec, std::uint64_t after = 0,
              std::function<void()> during = {}) {
    Run run;
    auto exes = ctl::job_executables(path, {});
    if (!exes) return run.end = exes.status(), run;
    auto connection = connect(1);
    if (!connection) return run.end = Status::error("no connection"), run;
    bool done_during = !during;
    run.end = run_own_executables(
        *connection, *exes, spec,
        [&](const JobProgress& p) {
          if (!done_during && p.step >= after) {
            done_during = true;
            during();
          }
        },
        ctl::Clock::now() + std::chrono::seconds(90),
        [&](const JobNotice& n) { run.notices.push_back(n); });
    return run;
  }

  std::string own_serial(const fs::path& path, JobSpec spec) {
    AppQuery q;
    q.kind = AppQueryKind::kSerial;
    spec.runtime.clear();
    q.spec = spec;
    auto a = ctl::ask_executable(path, q);
    return a && a->ok ? a->checksum : "no serial reference";
  }

  // A file a worker (which may run as another user) can make: in a directory anyone may write.
  std::string shared_file(const std::string& name) {
    if (shared_dir_.empty()) {
      std::string pattern = "/tmp/drift-it-shared-XXXXXX";
      if (::mkdtemp(pattern.data()) == nullptr) return "/nonexistent/" + name;
      shared_dir_ = pattern;
      fs::permissions(shared_dir_, fs::perms::all);
    }
    return (shared_dir_ / name).string();
  }
  void TearDown() override {
    ClusterTest::TearDown();
    std::error_code ec;
    if (!shared_dir_.empty()) fs::remove_all(shared_dir_, ec);
  }
  fs::path shared_dir_;

  static std::string notices_text(const Run& run) {
    std::string text;
    for (const auto& n : run.notices) text += n.text + "\n";
    return text;
  }
};

TEST_F(WorkerTest, KilledWorkerIsRecoveredAndTheDaemonLivesOn) {
  ASSERT_NO_FATAL_FAILURE(start(3, 30));
  JobSpec spec = ctl::job_spec("heat2d", 12, 400, {{"size", "384x384"}});
  spec.runtime["checkpoint_steps"] = "20";
  auto serial = reference_run(spec);
  ASSERT_TRUE(serial.is_ok()) << serial.error();
  spec = serial->spec;
  std::vector<JobNotice> notices;
  pid_t killed = -1;
  auto connection = connect(1);
  ASSERT_NE(connection, nullptr);
  auto end = ctl::run_job(
      *connection, spec,
      [&](const JobProgress& p) {
        if (killed > 0 || p.step < 100) return;
        auto workers = workers_of(cluster().pid(2));
        if (workers.empty()) return;
        killed = *workers.begin();
        ::kill(killed, SIGKILL);
      },
      ctl::Clock::now() + std::chrono::seconds(120),
      [&](const JobNotice& n) { notices.push_back(n); });
  ASSERT_TRUE(end.is_ok()) << end.error();
  ASSERT_TRUE(std::holds_alternative<JobResult>(*end)) << std::get<JobFailed>(*end).reason;
  const JobResult& result = std::get<JobResult>(*end);
  EXPECT_GT(killed, 0) << "no worker of node 2 was found to kill";
  EXPECT_EQ(result.checksum, serial->checksum);
  EXPECT_GE(result.recoveries, 1u);
  EXPECT_EQ(fate_of(2), "running");
  std::string texts;
  for (const auto& n : notices) texts += n.text + "\n";
  EXPECT_NE(texts.find("killed by signal 9"), std::string::npos) << texts;
}

TEST_F(WorkerTest, CrashingTwiceEndsTheJobNamingTaskNodeSignalAndStderr) {
  ASSERT_NO_FATAL_FAILURE(start(2, 31));
  JobSpec spec = ctl::job_spec("faulty", 4, 30, {{"at", "5"}, {"task", "1"}, {"do", "crash"}});
  Run run = run_own(faulty(), spec);
  ASSERT_TRUE(run.end.is_ok()) << run.end.error();
  ASSERT_TRUE(std::holds_alternative<JobFailed>(*run.end));
  const std::string reason = std::get<JobFailed>(*run.end).reason;
  EXPECT_NE(reason.find("task 1"), std::string::npos) << reason;
  EXPECT_NE(reason.find("on node "), std::string::npos) << reason;
  EXPECT_NE(reason.find("signal 11"), std::string::npos) << reason;
  EXPECT_NE(reason.find("faulty: task 1 does 'crash' at step 5 on purpose"), std::string::npos)
      << reason;
  EXPECT_NE(reason.find("lost a second time"), std::string::npos) << reason;
  EXPECT_EQ(fate_of(1), "running");
  EXPECT_EQ(fate_of(2), "running");
}

TEST_F(WorkerTest, AWorkerThatCrashedOnceIsRecovered) {
  ASSERT_NO_FATAL_FAILURE(start(2, 32));
  const std::string once = shared_file("crashed-once");
  JobSpec spec = ctl::job_spec("faulty", 4, 30,
                               {{"at", "5"}, {"task", "2"}, {"do", "crash"}, {"once", once}});
  Run run = run_own(faulty(), spec);
  ASSERT_TRUE(run.end.is_ok()) << run.end.error();
  ASSERT_TRUE(std::holds_alternative<JobResult>(*run.end)) << std::get<JobFailed>(*run.end).reason;
  EXPECT_EQ(std::get<JobResult>(*run.end).checksum, own_serial(faulty(), spec));
  EXPECT_EQ(std::get<JobResult>(*run.end).recoveries, 1u);
  EXPECT_TRUE(fs::exists(once));
}

TEST_F(WorkerTest, AHandlerThatHangsIsRolledBackByTheStallWatchdog) {
  ASSERT_NO_FATAL_FAILURE(start(2, 33, {"--checkpoint.stall_ms=1500"}));
  const std::string once = shared_file("hung-once");
  JobSpec spec = ctl::job_spec("faulty", 4, 30,
                               {{"at", "6"}, {"task", "3"}, {"do", "hang"}, {"once", once}});
  spec.runtime["checkpoint_steps"] = "2";
  Run run = run_own(faulty(), spec);
  ASSERT_TRUE(run.end.is_ok()) << run.end.error();
  ASSERT_TRUE(std::holds_alternative<JobResult>(*run.end)) << std::get<JobFailed>(*run.end).reason;
  EXPECT_EQ(std::get<JobResult>(*run.end).checksum, own_serial(faulty(), spec));
  EXPECT_GE(std::get<JobResult>(*run.end).recoveries, 1u);
  EXPECT_NE(notices_text(run).find("made no progress"), std::string::npos) << notices_text(run);
  // The hung worker was replaced: none is left behind once the job is over.
  EXPECT_TRUE(poll_until(std::chrono::seconds(5), std::chrono::milliseconds(50), [&] {
    return workers_of(cluster().pid(1)).empty() && workers_of(cluster().pid(2)).empty();
  }));
}

// The stall watchdog counts each task's contribution as progress: a step that takes longer than
// checkpoint.stall_ms on a busy node (eight tasks of 0.3 s each, one after another in the node's
// one worker thread, 2.4 s a step) while its tasks keep contributing is no lost message. Before,
// the first step (no step time yet to stretch the patience) was rolled back again and again.
TEST_F(WorkerTest, ASlowStepWhoseTasksKeepContributingIsNotAStall) {
  ASSERT_NO_FATAL_FAILURE(start(2, 53, {"--checkpoint.stall_ms=1500"}));
  const JobSpec spec = ctl::job_spec("ballast", 16, 3, {{"state", "1K"}, {"work", "300000"}});
  auto connection = connect(1);
  ASSERT_NE(connection, nullptr);
  std::vector<JobNotice> notices;
  auto end = ctl::run_job(*connection, spec, nullptr, ctl::Clock::now() + std::chrono::seconds(90),
                          [&](const JobNotice& n) { notices.push_back(n); });
  ASSERT_TRUE(end.is_ok()) << end.error();
  ASSERT_TRUE(std::holds_alternative<JobResult>(*end)) << std::get<JobFailed>(*end).reason;
  const JobResult& result = std::get<JobResult>(*end);
  EXPECT_EQ(result.checksum, serial_checksum(spec));
  EXPECT_EQ(result.recoveries, 0u);
  for (const JobNotice& n : notices) {
    EXPECT_EQ(n.text.find("made no progress"), std::string::npos) << n.text;
  }
  // The steps did take longer than the watchdog's 1.5 s.
  ASSERT_EQ(result.step_s.size(), 3u);
  EXPECT_GT(result.step_s.front(), 1.5);
}

TEST_F(WorkerTest, AWorkerOverItsMemoryLimitIsStoppedAndNamed) {
  ASSERT_NO_FATAL_FAILURE(start(2, 34, {"--worker.memory_limit=200000000"}));
  JobSpec spec = ctl::job_spec("faulty", 2, 30,
                               {{"at", "3"}, {"task", "0"}, {"do", "grow"}, {"grow-mb", "400"}});
  Run run = run_own(faulty(), spec);
  ASSERT_TRUE(run.end.is_ok()) << run.end.error();
  ASSERT_TRUE(std::holds_alternative<JobFailed>(*run.end));
  const std::string reason = std::get<JobFailed>(*run.end).reason;
  // The kernel's OOM killer (a memory cgroup) or an allocation refused (RLIMIT_AS): named.
  EXPECT_NE(reason.find("memory"), std::string::npos) << reason;
  EXPECT_NE(reason.find("worker.memory_limit"), std::string::npos) << reason;
  EXPECT_EQ(fate_of(1), "running");
  EXPECT_EQ(fate_of(2), "running");
}

TEST_F(WorkerTest, AnExecutableWhoseBytesDoNotMatchItsHashIsRefused) {
  ASSERT_NO_FATAL_FAILURE(start(2, 35));
  auto connection = connect(1);
  ASSERT_NE(connection, nullptr);
  std::ifstream in(faulty(), std::ios::binary);
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  ASSERT_GT(bytes.size(), 100u);
  auto real = sha256_file(faulty().string());
  ASSERT_TRUE(real.is_ok());
  bytes[bytes.size() / 2] ^= 0xff;  // one byte off
  ASSERT_TRUE(connection->send(AppOffer{*real, "x86_64", bytes.size()}));
  auto reply = connection->receive(ctl::Clock::now() + std::chrono::seconds(5));
  ASSERT_TRUE(reply.is_ok()) << reply.error();
  ASSERT_TRUE(std::holds_alternative<AppOfferReply>(*reply));
  ASSERT_FALSE(std::get<AppOfferReply>(*reply).have);
  for (std::size_t at = 0; at < bytes.size(); at += 1u << 20) {
    const std::size_t n = std::min<std::size_t>(1u << 20, bytes.size() - at);
    ASSERT_TRUE(connection->send(AppPiece{*real, bytes.size(), at,
                                          {bytes.begin() + at, bytes.begin() + at + n}}));
  }
  auto stored = connection->receive(ctl::Clock::now() + std::chrono::seconds(5));
  ASSERT_TRUE(stored.is_ok()) << stored.error();
  ASSERT_TRUE(std::holds_alternative<AppStored>(*stored));
  EXPECT_FALSE(std::get<AppStored>(*stored).ok);
  EXPECT_NE(std::get<AppStored>(*stored).error.find("hash"), std::string::npos)
      << std::get<AppStored>(*stored).error;
  // A job naming it cannot run: no node has it, and nothing was started.
  JobSpec spec = ctl::job_spec("faulty", 2, 5, {});
  spec.runtime["binary.x86_64"] = *real;
  auto end = ctl::run_job(*connection, spec, nullptr, ctl::Clock::now() + std::chrono::seconds(30));
  ASSERT_TRUE(end.is_ok()) << end.error();
  ASSERT_TRUE(std::holds_alternative<JobFailed>(*end));
  EXPECT_NE(std::get<JobFailed>(*end).reason.find("no node could send executable " + *real),
            std::string::npos)
      << std::get<JobFailed>(*end).reason;
  EXPECT_TRUE(workers_of(cluster().pid(1)).empty());
  EXPECT_TRUE(workers_of(cluster().pid(2)).empty());
}

TEST_F(WorkerTest, NodesWithoutAnExecutableForTheirArchitectureSitOutAndAreNamed) {
  ASSERT_NO_FATAL_FAILURE(start(3, 36, {}, {{3, {"--test.arch=i386"}}}));
  JobSpec spec = ctl::job_spec("faulty", 6, 40, {});
  spec.runtime["chaos_migrations"] = "1";
  std::size_t tasks_on_3 = 0;
  Run run = run_own(faulty(), spec, 10, [&] {
    auto connection = connect(2);
    if (!connection) return;
    if (auto tasks = ctl::query_tasks(*connection, std::chrono::seconds(5))) {
      for (const TaskInfo& t : tasks->tasks) tasks_on_3 += t.node == 3 ? 1 : 0;
    }
  });
  ASSERT_TRUE(run.end.is_ok()) << run.end.error();
  ASSERT_TRUE(std::holds_alternative<JobResult>(*run.end)) << std::get<JobFailed>(*run.end).reason;
  EXPECT_EQ(std::get<JobResult>(*run.end).checksum, own_serial(faulty(), spec));
  EXPECT_EQ(tasks_on_3, 0u);
  const std::string text = notices_text(run);
  EXPECT_NE(text.find("node 3 (node3, i386)"), std::string::npos) << text;
  EXPECT_NE(text.find("no executable for their architecture"), std::string::npos) << text;
}

TEST_F(WorkerTest, DaemonMemoryAndThreadsDoNotGrowWithTheJobsItRan) {
  ASSERT_NO_FATAL_FAILURE(start(2, 37));
  auto run_jobs = [&](int n) {
    for (int i = 0; i < n; ++i) {
      auto connection = connect(1);
      ASSERT_NE(connection, nullptr);
      auto end = ctl::run_job(*connection, ctl::job_spec("heat2d", 4, 20, {{"size", "128x128"}}),
                              nullptr, ctl::Clock::now() + std::chrono::seconds(30));
      ASSERT_TRUE(end.is_ok()) << end.error();
      ASSERT_TRUE(std::holds_alternative<JobResult>(*end));
    }
  };
  ASSERT_NO_FATAL_FAILURE(run_jobs(3));  // warm: buffers, caches, the allocator's arenas
  const pid_t daemon = cluster().pid(1);
  ASSERT_TRUE(poll_until(std::chrono::seconds(5), std::chrono::milliseconds(50),
                         [&] { return workers_of(daemon).empty(); }));
  const long threads = proc_status_field(daemon, "Threads:");
  const long rss_kb = proc_status_field(daemon, "VmRSS:");
  ASSERT_NO_FATAL_FAILURE(run_jobs(20));
  EXPECT_TRUE(poll_until(std::chrono::seconds(5), std::chrono::milliseconds(50),
                         [&] { return workers_of(daemon).empty(); }))
      << "worker processes outlived their jobs";
  EXPECT_EQ(proc_status_field(daemon, "Threads:"), threads);
  const long grown_kb = proc_status_field(daemon, "VmRSS:") - rss_kb;
  std::cerr << "driftd RSS " << rss_kb << " kB before 20 jobs, grew by " << grown_kb << " kB\n";
  if (kRssIsMeaningful) {
    EXPECT_LT(grown_kb, 2048) << "RSS " << rss_kb << " kB before the 20 jobs";
  } else {
    std::cerr << "RSS growth not checked in a sanitizer build (proc_status.h)\n";
  }
}

}  // namespace
}  // namespace drift::test

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
