// Applications run in worker processes (docs/architecture.md §11), and a worker never takes its
// daemon with it: a worker killed mid-job is recovered like a failed node; one that crashes at
// every try ends its job with an error naming the task, the node, the signal and its last words;
// one that hangs is rolled back by the stall watchdog; one over its memory limit is stopped and
// named. An executable whose bytes do not match its hash is refused before anything runs; nodes
// of an architecture a job has no executable for take no task of it, and driftctl names them.
// The daemon's memory and threads do not grow with the jobs it ran. (How workers are contained:
// worker_containment_test.cc.)
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <vector>

#include "ctl/job_client.h"
#include "ctl/tasks_query.h"
#include "node/workers/sha256.h"
#include "protocol/codec.h"
#include "tests/integration/worker_fixture.h"
#include "tests/integration/poll.h"
#include "tests/integration/proc_status.h"

namespace fs = std::filesystem;

namespace drift::test {
namespace {

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
  // The notice (driftctl's trace, --json) names the worker's node, though it stayed in the job.
  std::size_t recovered = 0;
  for (const auto& n : notices) {
    if (n.kind != JobNoticeKind::kRecovered) continue;
    ++recovered;
    EXPECT_EQ(n.node, 2u) << n.text;
  }
  EXPECT_GE(recovered, 1u) << texts;
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
  // The watchdog also judges a job's creation, fetching the executable included: a sanitized
  // one is nearly four times the size (55 MB) and its node took 1.5 s to fetch it.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  ASSERT_NO_FATAL_FAILURE(start(2, 33, {"--checkpoint.stall_ms=5000"}));
#else
  ASSERT_NO_FATAL_FAILURE(start(2, 33, {"--checkpoint.stall_ms=1500"}));
#endif
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

// A task that never calls finish: every step reduced, its result never comes. A rollback redoes
// a result that was lost; one that is never sent stalls again, and the third such stall ends the
// job naming the task, instead of rolling it back for ever (a fresh user's job ran an hour).
TEST_F(WorkerTest, ATaskThatNeverFinishesEndsTheJobNamingIt) {
  ASSERT_NO_FATAL_FAILURE(start(2, 67, {"--checkpoint.stall_ms=1000"}));
  JobSpec spec = ctl::job_spec("faulty", 4, 10, {{"task", "2"}, {"do", "no-finish"}});
  spec.runtime["checkpoint_steps"] = "5";
  Run run = run_own(faulty(), spec);
  ASSERT_TRUE(run.end.is_ok()) << run.end.error();
  ASSERT_TRUE(std::holds_alternative<JobFailed>(*run.end)) << "the job did not fail";
  const std::string& reason = std::get<JobFailed>(*run.end).reason;
  EXPECT_NE(reason.find("task 2 did not finish after the job's last step (10)"), std::string::npos)
      << reason;
  EXPECT_NE(notices_text(run).find("no task finished for"), std::string::npos)
      << notices_text(run);
}

// A task that sends to a task its job does not have fails the job, and the reason says which
// task it named and which the job has.
TEST_F(WorkerTest, ASendToATaskTheJobDoesNotHaveEndsTheJobNamingIt) {
  ASSERT_NO_FATAL_FAILURE(start(1, 70));
  const JobSpec spec =
      ctl::job_spec("faulty", 4, 10, {{"task", "1"}, {"at", "3"}, {"do", "bad-send"}});
  Run run = run_own(faulty(), spec);
  ASSERT_TRUE(run.end.is_ok()) << run.end.error();
  ASSERT_TRUE(std::holds_alternative<JobFailed>(*run.end)) << "the job did not fail";
  const std::string& reason = std::get<JobFailed>(*run.end).reason;
  EXPECT_NE(reason.find("send to task 1001: this job's tasks are 0..3"), std::string::npos)
      << reason;
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
  EXPECT_NE(text.find("node 3 (node3, i386) takes no task of the job: it has no executable for "
                      "its architecture"),
            std::string::npos)
      << text;
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
