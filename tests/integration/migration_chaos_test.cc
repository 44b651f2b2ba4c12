// The chaos test: 32 chatter tasks on 4 daemons exchange numbered messages for at least 20 s
// while two drivers migrate random tasks to random nodes as fast as the reports come back —
// often the task just moved (twice in a row) or straight back to where it came from, and
// sometimes the same task from both drivers at once. Afterwards every channel's sequence was
// complete, in order and free of duplicates (chatter fails the job otherwise, and its checksum
// equals the serial reference's only then), the daemons counted exactly the moves reported, and
// no task of the job is left anywhere. A second run does the same with forwarding pointers that
// expire at once. Labelled "chaos": excluded from quick runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iostream>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <thread>

#include "tests/integration/migration_harness.h"
#include "tests/integration/poll.h"

namespace drift::test {
namespace {

constexpr int kNodes = 4;
constexpr std::uint32_t kTasks = 32;
constexpr double kTargetSeconds = 32;  // calibrated; a margin over 20 s for a machine that speeds up
constexpr double kShortTargetSeconds = 10;
constexpr std::uint64_t kCalibrationSteps = 60;
const std::map<std::string, std::string> kParams{
    {"fanout", "4"}, {"payload", "64"}, {"work", "200"}};

// What the drivers did, shared between them.
struct Tally {
  std::mutex mu;
  std::map<std::uint32_t, std::uint32_t> at;  // task index -> node, as the reports say
  std::uint64_t ok = 0, again = 0, back = 0;
  std::map<std::string, std::uint64_t> refused;  // by reason, numbers stripped
  std::vector<std::string> unexpected;
  std::vector<std::string> errors;
};

// The reason with every word holding a digit (node ids, task names) replaced by "#".
std::string reason_kind(const std::string& reason) {
  std::istringstream words(reason);
  std::string kind;
  for (std::string word; words >> word;) {
    const bool number = std::any_of(word.begin(), word.end(),
                                    [](unsigned char ch) { return std::isdigit(ch) != 0; });
    kind += (kind.empty() ? "" : " ") + (number ? std::string("#") : word);
  }
  return kind;
}

// Refusals that concurrent drivers or the end of the job explain.
bool expected_refusal(const MigrationReport& r) {
  for (const char* ok :
       {"already migrating", "already on node", "already arriving", "already lives here"}) {
    if (r.reason.find(ok) != std::string::npos) return true;
  }
  return job_is_ending(r);
}

void drive(BackgroundJob& job, ctl::ClientConnection& connection, std::uint32_t seed,
           Tally& tally) {
  std::mt19937 rng(seed);
  std::optional<MigrationReport> last;  // this driver's last successful move
  while (!job.done()) {
    const std::uint32_t dice = rng() % 10;
    TaskId task{job.id(), static_cast<std::uint32_t>(rng() % kTasks)};
    std::uint32_t dest = 0;
    bool is_back = false, is_again = false;
    if (last && dice < 2) {
      task = last->task;
      dest = last->from;
      is_back = true;
    } else if (last && dice < 4) {
      task = last->task;
      dest = random_other_node(last->to, kNodes, rng);
      is_again = true;
    } else {
      std::lock_guard lock(tally.mu);
      dest = random_other_node(tally.at[task.index], kNodes, rng);
    }
    auto report = migrate(connection, task, dest);
    std::lock_guard lock(tally.mu);
    if (!report) {
      tally.errors.push_back(report.error());
      return;
    }
    if (report->ok) {
      ++tally.ok;
      tally.back += is_back;
      tally.again += is_again;
      tally.at[task.index] = report->to;
      last = *report;
      continue;
    }
    last.reset();
    ++tally.refused[reason_kind(report->reason)];
    if (report->reason.find("already on node") != std::string::npos) tally.at[task.index] = dest;
    if (!expected_refusal(*report)) tally.unexpected.push_back(report->reason);
  }
}

class ChaosMigrationTest : public MigrationClusterTest {
 protected:
  // Starts the cluster with `daemon_args`, calibrates, runs the job for about `target_seconds`
  // under the two drivers and checks the outcome; the run must last `min_seconds`.
  void run_chaos(const std::vector<std::string>& daemon_args, double target_seconds,
                 double min_seconds);
};

void ChaosMigrationTest::run_chaos(const std::vector<std::string>& daemon_args,
                                   double target_seconds, double min_seconds) {
  ASSERT_NO_FATAL_FAILURE(start_nodes(kNodes, /*slot=*/11, daemon_args));

  // How many steps make a run of target_seconds on this machine today.
  auto calibration_connection = connect(1);
  ASSERT_NE(calibration_connection, nullptr);
  auto calibration = ctl::run_job(*calibration_connection,
                                  ctl::job_spec("chatter", kTasks, kCalibrationSteps, kParams),
                                  nullptr, ctl::Clock::now() + std::chrono::seconds(30));
  ASSERT_TRUE(calibration.is_ok()) << calibration.error();
  ASSERT_TRUE(std::holds_alternative<JobResult>(*calibration)) << "the calibration job failed";
  const double step_s = std::get<JobResult>(*calibration).wall_s / kCalibrationSteps;
  const auto steps =
      static_cast<std::uint64_t>(std::clamp(std::ceil(target_seconds / step_s), 300.0, 200'000.0));

  auto ref = reference_run(ctl::job_spec("chatter", kTasks, steps, kParams));
  ASSERT_TRUE(ref.is_ok()) << ref.error();
  BackgroundJob job(connect(1), ref->spec, std::chrono::seconds(90));
  ASSERT_TRUE(job.wait_started(std::chrono::seconds(10))) << "the job did not start";
  auto viewer = connect(4);
  ASSERT_NE(viewer, nullptr);
  Tally tally;
  {
    auto table = task_table(*viewer, job.id());
    ASSERT_TRUE(table.is_ok()) << table.error();
    ASSERT_EQ(table->size(), kTasks);
    for (const auto& [index, info] : *table) tally.at[index] = info.node;
  }
  auto first = connect(2);
  auto second = connect(3);
  ASSERT_TRUE(first && second);
  std::thread driver_a([&] { drive(job, *first, 11, tally); });
  std::thread driver_b([&] { drive(job, *second, 12, tally); });

  // While it runs: how many messages the pointers forwarded so far (pointers die with the job).
  std::uint64_t forwarded_seen = 0;
  while (!job.wait_done(std::chrono::seconds(1))) {
    auto table = task_table(*viewer, job.id());
    if (!table) continue;
    std::uint64_t forwarded = 0;
    for (const auto& [index, info] : *table) forwarded += info.forwarded;
    forwarded_seen = std::max(forwarded_seen, forwarded);
  }
  driver_a.join();
  driver_b.join();

  EXPECT_TRUE(ended_with_checksum(job.outcome(), ref->checksum));
  EXPECT_TRUE(tally.errors.empty()) << tally.errors.front();
  EXPECT_TRUE(tally.unexpected.empty())
      << tally.unexpected.size() << " unexpected refusals, e.g.: " << tally.unexpected.front();
  EXPECT_GE(job.seconds(), min_seconds) << "the run was shorter than asked";
  EXPECT_GE(tally.ok, 100u);
  const NodeCounters total = total_counters();
  EXPECT_EQ(total.migrations_out, tally.ok) << "the daemons moved tasks nobody reported";
  EXPECT_EQ(total.migrations_in, tally.ok);
  // Nothing of the job is left behind: no task hosted anywhere once it ended.
  EXPECT_TRUE(poll_until(std::chrono::seconds(5), std::chrono::milliseconds(100), [&] {
    auto table = task_table(*viewer, job.id());
    return table && table->empty();
  })) << "tasks of the finished job are still hosted";

  std::cout << "chaos: " << kTasks << " tasks, " << steps << " steps in " << job.seconds() << " s; "
            << tally.ok << " migrations (" << tally.again << " twice in a row, " << tally.back
            << " straight back), forwarded messages seen by TasksRequest " << forwarded_seen
            << "\n  counters: " << describe(total) << "\n  refusals:";
  for (const auto& [kind, n] : tally.refused) std::cout << "\n    " << n << " x " << kind;
  std::cout << "\n";
}

TEST_F(ChaosMigrationTest, ChannelsStayExactWhileTasksMoveContinuously) {
  run_chaos({"--node.capacity=1"}, kTargetSeconds, 20.0);
}

// The same with forwarding pointers dropped 1 ms after their last use (swept every second): late
// messages mostly find no pointer and must be routed through the task's home (docs/architecture.md §7:
// pointers are an optimisation, not a correctness requirement).
TEST_F(ChaosMigrationTest, ChannelsStayExactWithoutForwardingPointers) {
  run_chaos({"--node.capacity=1", "--migration.pointer_ttl_ms=1"}, kShortTargetSeconds, 8.0);
}

}  // namespace
}  // namespace drift::test
