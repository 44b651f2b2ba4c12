// (a) heat2d across 4 real daemons, submitted through driftctl's client, gives exactly the
// serial reference's checksum.
#include <gtest/gtest.h>

#include "ctl/job_client.h"
#include "tests/integration/cluster_test_fixture.h"
#include "tests/integration/migration_harness.h"

namespace drift::test {
namespace {

class Heat2dClusterTest : public ClusterTest {};

TEST_F(Heat2dClusterTest, SixteenTasksOnFourDaemonsMatchTheSerialReference) {
  start_cluster(4, /*slot=*/0);
  wait_for_load_reports(1);
  JobSpec spec = ctl::job_spec("heat2d", 16, 50, {{"size", "256x256"}});
  auto serial = reference_run(spec);  // the spec with the application's defaults, and its checksum
  ASSERT_TRUE(serial.is_ok()) << serial.error();
  spec = serial->spec;

  auto connection = connect(1);
  ASSERT_NE(connection, nullptr);
  std::uint64_t progress_messages = 0;
  auto end = ctl::run_job(
      *connection, spec, [&](const JobProgress&) { ++progress_messages; },
      ctl::Clock::now() + std::chrono::seconds(90));
  ASSERT_TRUE(end.is_ok()) << end.error();
  if (auto* failed = std::get_if<JobFailed>(&*end)) FAIL() << "job failed: " << failed->reason;
  const auto& result = std::get<JobResult>(*end);
  EXPECT_EQ(result.checksum, serial->checksum);
  EXPECT_EQ(result.app, "heat2d");
  EXPECT_EQ(result.tasks, 16u);
  EXPECT_EQ(result.steps, 50u);
  std::cout << "heat2d 256x256, 50 steps, 16 tasks on 4 daemons: checksum " << result.checksum
            << " in " << result.wall_s << " s, " << progress_messages << " progress messages\n";
}

}  // namespace
}  // namespace drift::test
