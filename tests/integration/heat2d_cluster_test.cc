// (a) heat2d across 4 real daemons, submitted through driftctl's client, gives exactly the
// serial reference's checksum.
#include <gtest/gtest.h>

#include "node/tasks/app_registry.h"
#include "ctl/job_client.h"
#include "tests/integration/cluster_test_fixture.h"

namespace drift::test {
namespace {

class Heat2dClusterTest : public ClusterTest {};

TEST_F(Heat2dClusterTest, SixteenTasksOnFourDaemonsMatchTheSerialReference) {
  start_cluster(4, /*slot=*/0);
  wait_for_load_reports(1);
  JobSpec spec = ctl::job_spec("heat2d", 16, 50, {{"size", "256x256"}});
  const Application* app = builtin_apps().find("heat2d");
  ASSERT_NE(app, nullptr);
  ASSERT_TRUE(app->validate(spec).is_ok());
  auto serial = app->run_serial(spec);
  ASSERT_TRUE(serial.is_ok()) << serial.error();

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
