// heat2d while the root moves a random task to a random node after every step (runtime option
// chaos_migrations): the result is still exactly the serial reference's, and tasks did move.
#include <gtest/gtest.h>

#include "ctl/job_client.h"
#include "tests/integration/cluster_test_fixture.h"
#include "tests/integration/migration_harness.h"

namespace drift::test {
namespace {

class MigrationHeat2dTest : public ClusterTest {};

TEST_F(MigrationHeat2dTest, RandomMigrationEveryStepKeepsTheSerialChecksum) {
  start_cluster(4, /*slot=*/5);
  wait_for_load_reports(1);
  JobSpec spec = ctl::job_spec("heat2d", 16, 120, {{"size", "192x160"}});
  spec.runtime["chaos_migrations"] = "1";
  auto serial = reference_run(spec);  // the spec with the application's defaults, and its checksum
  ASSERT_TRUE(serial.is_ok()) << serial.error();
  spec = serial->spec;

  auto connection = connect(1);
  ASSERT_NE(connection, nullptr);
  auto end = ctl::run_job(*connection, spec, nullptr, ctl::Clock::now() + std::chrono::seconds(120));
  ASSERT_TRUE(end.is_ok()) << end.error();
  if (auto* failed = std::get_if<JobFailed>(&*end)) FAIL() << "job failed: " << failed->reason;
  EXPECT_EQ(std::get<JobResult>(*end).checksum, serial->checksum);

  std::uint64_t migrations = 0;
  for (int k = 1; k <= 4; ++k) {
    auto counters = counters_of(k);
    ASSERT_TRUE(counters.is_ok()) << counters.error();
    migrations += counters->migrations_out;
  }
  std::cout << "migrations during the run: " << migrations << "\n";
  EXPECT_GT(migrations, 20u);
}

}  // namespace
}  // namespace drift::test
