// Migrations in a mixed-architecture cluster (mixed_arch_fixture.h; in CI one native, one
// big-endian s390x and one 32-bit i386 driftd, the foreign ones under qemu-user). heat2d
// and particles run across all of them while one task tours every ordered pair of daemons, so its
// state is written on each architecture and read on each other; every job must end with the
// checksum of its serial reference, computed here. A job that ends before the tour is done is
// checked too and the tour goes on in the next one. Label "cross": `ctest -LE cross` leaves it
// out, scripts/cross-test.sh runs it.
#include <gtest/gtest.h>

#include <iostream>
#include <set>
#include <sstream>
#include <utility>

#include "ctl/job_client.h"
#include "ctl/app_executable.h"
#include "ctl/job_executables.h"
#include "tests/integration/mixed_arch_fixture.h"

namespace drift::test {
namespace {

using Pair = std::pair<std::uint32_t, std::uint32_t>;  // (from node, to node)
constexpr int kMaxJobs = 4;

class MixedArchMigrationTest : public MixedArchTest {
 protected:
  // The next move of the tour from `at`: an uncovered pair starting here, else the start of any
  // uncovered pair. 0 when every pair is covered.
  std::uint32_t next_stop(std::uint32_t at, const std::set<Pair>& covered) const {
    const auto nodes = static_cast<std::uint32_t>(cluster_->nodes());
    std::uint32_t elsewhere = 0;
    for (std::uint32_t from = 1; from <= nodes; ++from) {
      for (std::uint32_t to = 1; to <= nodes; ++to) {
        if (from == to || covered.count({from, to})) continue;
        if (from == at) return to;
        if (elsewhere == 0) elsewhere = from;
      }
    }
    return elsewhere;
  }

  // Moves task 0 of the running job along uncovered pairs until all are covered or the job ends.
  void tour(BackgroundJob& job, std::set<Pair>& covered) {
    auto mover = connect(1);
    ASSERT_NE(mover, nullptr);
    const TaskId task{job.id(), 0};
    auto table = task_table(*mover, job.id());
    ASSERT_TRUE(table) << table.error();
    if (!table->count(0)) return;  // already finished
    std::uint32_t at = table->at(0).node;
    for (std::uint32_t to = next_stop(at, covered); to != 0; to = next_stop(at, covered)) {
      auto report = migrate(*mover, task, to);
      ASSERT_TRUE(report) << report.error();
      if (job_is_ending(*report)) return;
      ASSERT_TRUE(report->ok) << name(at) << " -> " << name(to) << ": " << report->reason;
      std::cout << "  task 0 moved from " << name(report->from) << " to " << name(report->to)
                << ": " << report->state_bytes << " B in " << report->seconds << " s\n";
      covered.insert({report->from, report->to});
      at = to;
    }
  }

  // Jobs of `spec` (at most kMaxJobs) until task 0 has crossed every pair of daemons.
  void run_touring(JobSpec spec) {
    auto ref = reference_run(std::move(spec));
    ASSERT_TRUE(ref) << ref.error();
    const auto n = static_cast<std::size_t>(cluster_->nodes());
    std::set<Pair> covered;
    for (int j = 1; j <= kMaxJobs && covered.size() < n * (n - 1); ++j) {
      BackgroundJob job(connect(1), ref->spec, std::chrono::seconds(300));
      ASSERT_TRUE(job.wait_started(std::chrono::seconds(60))) << "job " << j << " did not start";
      ASSERT_NO_FATAL_FAILURE(tour(job, covered));
      ASSERT_TRUE(job.wait_done(std::chrono::seconds(300))) << "job " << j << " did not end";
      EXPECT_TRUE(ended_with_checksum(job.outcome(), ref->checksum)) << "job " << j;
      std::cout << ref->spec.app << " job " << j << " ended after " << job.seconds()
                << " s; pairs crossed so far: " << covered.size() << " of " << n * (n - 1)
                << "; serial checksum " << ref->checksum << "\n";
    }
    EXPECT_EQ(covered.size(), n * (n - 1)) << "task 0 did not cross every pair of daemons";
  }
};

TEST_F(MixedArchMigrationTest, Heat2dTaskToursEveryPairOfArchitectures) {
  ASSERT_NO_FATAL_FAILURE(start_mixed_cluster(/*slot=*/20));
  JobSpec spec = ctl::job_spec("heat2d", 6, 150, {{"size", "48x36"}});
  spec.runtime["placement"] = "even";
  run_touring(spec);
}

TEST_F(MixedArchMigrationTest, ParticlesTaskToursEveryPairOfArchitectures) {
  ASSERT_NO_FATAL_FAILURE(start_mixed_cluster(/*slot=*/21));
  JobSpec spec =
      ctl::job_spec("particles", 6, 120, {{"cells", "96"}, {"particles", "3000"}, {"drift", "200"}});
  spec.runtime["placement"] = "even";
  run_touring(spec);
}

// The job's root moves a random task to a random daemon after every step: state crosses between
// the architectures in every direction, many times, and the result does not change.
TEST_F(MixedArchMigrationTest, Heat2dUnderRandomMigrationsKeepsTheSerialChecksum) {
  ASSERT_NO_FATAL_FAILURE(start_mixed_cluster(/*slot=*/22));
  JobSpec spec = ctl::job_spec("heat2d", 6, 60, {{"size", "48x36"}});
  spec.runtime["chaos_migrations"] = "1";
  auto ref = reference_run(spec);
  ASSERT_TRUE(ref) << ref.error();
  BackgroundJob job(connect(1), ref->spec, std::chrono::seconds(300));
  ASSERT_TRUE(job.wait_done(std::chrono::seconds(300))) << "the job did not end";
  EXPECT_TRUE(ended_with_checksum(job.outcome(), ref->checksum));
  std::uint64_t moved_in = 0;
  for (int k = 2; k <= cluster_->nodes(); ++k) {
    auto counters = counters_of(k);
    ASSERT_TRUE(counters) << counters.error();
    std::cout << "  " << name(static_cast<std::uint32_t>(k)) << ": " << describe(*counters)
              << "\n";
    moved_in += counters->migrations_in;
  }
  EXPECT_GT(moved_in, 0u) << "no task moved to a foreign daemon";
}

// The user's own application, built for each architecture (examples/wave, against each
// architecture's SDK): every daemon runs the executable of its own, shipped with the job, and a
// task's state still crosses between them under random migrations.
TEST_F(MixedArchMigrationTest, OwnExecutablePerArchitectureUnderRandomMigrations) {
  const char* listed = std::getenv("DRIFT_CROSS_WAVE");
  ASSERT_TRUE(listed != nullptr && *listed)
      << "DRIFT_CROSS_WAVE names examples/wave built per architecture "
         "(native=PATH;s390x=PATH;...): run scripts/cross-test.sh";
  std::string native;
  std::vector<std::string> others;
  std::stringstream entries(listed);
  for (std::string e; std::getline(entries, e, ';');) {
    if (e.starts_with("native=")) {
      native = e.substr(7);
    } else if (!e.empty()) {
      others.push_back(e);
    }
  }
  auto exes = ctl::job_executables(native, others);
  ASSERT_TRUE(exes) << exes.error();
  ASSERT_NO_FATAL_FAILURE(start_mixed_cluster(/*slot=*/23));
  JobSpec spec = ctl::job_spec("wave", 6, 80, {{"points", "3000"}});
  AppQuery serial;
  serial.kind = AppQueryKind::kSerial;
  serial.spec = spec;
  auto reference = ctl::ask_executable(native, serial);
  ASSERT_TRUE(reference && reference->ok) << (reference ? reference->error : reference.error());
  spec = reference->spec;
  spec.runtime["chaos_migrations"] = "1";
  auto connection = connect(1);
  ASSERT_NE(connection, nullptr);
  auto end = run_own_executables(*connection, *exes, spec, nullptr,
                                 ctl::Clock::now() + std::chrono::seconds(300));
  ASSERT_TRUE(end) << end.error();
  ASSERT_TRUE(std::holds_alternative<JobResult>(*end)) << std::get<JobFailed>(*end).reason;
  EXPECT_EQ(std::get<JobResult>(*end).checksum, reference->checksum);
  std::uint64_t moved_in = 0;
  for (int k = 2; k <= cluster_->nodes(); ++k) {
    auto counters = counters_of(k);
    ASSERT_TRUE(counters) << counters.error();
    std::cout << "  " << name(static_cast<std::uint32_t>(k)) << ": " << describe(*counters)
              << "\n";
    moved_in += counters->migrations_in;
  }
  EXPECT_GT(moved_in, 0u) << "no task moved to a foreign daemon";
  std::cout << "wave, executables for native, " << others.size()
            << " other architecture(s): checksum " << reference->checksum << "\n";
}

}  // namespace
}  // namespace drift::test
