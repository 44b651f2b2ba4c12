// Granularity on real daemons (docs/architecture.md §8): heat2d tiles split into spare tasks and merge back
// while the job runs. With random splits, merges and migrations after every step the result is
// still exactly the serial reference's; and three emulated machines of speeds 1, 1.5 and 1.9 that
// start with one tile each (too coarse for any whole tile to move without making its receiver
// the bottleneck) balance by splitting the slow machine's tile.
#include <gtest/gtest.h>

#include <map>

#include <drift/application.h>
#include "ctl/job_client.h"
#include "ctl/tasks_query.h"
#include "tests/integration/cluster_test_fixture.h"

namespace drift::test {
namespace {

constexpr int kGrainSlot = 27;

TEST_F(ClusterTest, RandomSplitsMergesAndMovesKeepTheSerialChecksum) {
  start_cluster(4, kGrainSlot);
  wait_for_load_reports(1);
  // 8 tiles and 8 spare tasks; every step the root asks for two splits or merges and moves a
  // task.
  JobSpec spec = ctl::job_spec("heat2d", 16, 150, {{"size", "192x160"}, {"spare", "8"}});
  spec.runtime["chaos_grain"] = "2";
  spec.runtime["chaos_migrations"] = "1";
  auto connection = connect(1);
  ASSERT_NE(connection, nullptr);
  auto end = ctl::run_job(*connection, spec, nullptr, ctl::Clock::now() + std::chrono::seconds(120));
  ASSERT_TRUE(end.is_ok()) << end.error();
  if (auto* failed = std::get_if<JobFailed>(&*end)) FAIL() << "job failed: " << failed->reason;
  const auto& result = std::get<JobResult>(*end);
  EXPECT_EQ(result.checksum, serial_checksum(spec));
  std::cout << "splits " << result.splits << ", merges " << result.merges << ", migrations "
            << result.migrations << "\n";
  EXPECT_GT(result.splits, 5u);
  EXPECT_GT(result.merges, 2u);
  EXPECT_GT(result.migrations, 20u);
}

TEST_F(ClusterTest, CoarseTilesSplitWhenNoWholeTileCanMove) {
  ctl::LocalClusterOptions options;
  options.driftd = bin_dir() / "driftd";
  options.stop_with_parent = true;
  options.extra_args = {"--emulate.unit_rate=200000", "--balance.strategy=diffusion",
                        "--balance.capacity=dynamic", "--balance.period_ms=300",
                        "--balance.eff_min=0.9"};
  options.node_args[1] = {"--emulate.speed=1"};
  // No machine is twice as fast as another: whichever tile moves whole, its receiver, holding
  // two tiles, would then be the slowest. (With speeds 1, 4 and 12 the middle machine's tile
  // could move to the fast one, and the slow one's whole tile into the hole it left.)
  options.node_args[2] = {"--emulate.speed=1.5"};
  options.node_args[3] = {"--emulate.speed=1.9"};
  cluster_ = std::make_unique<ctl::LocalCluster>(dir_, options);
  ASSERT_NO_FATAL_FAILURE(start_cluster(3, kGrainSlot));
  wait_for_load_reports(1);

  // 3 tiles of 200x200 cells (0.2 s a step for its tile on the slow machine),
  // one per machine, and 21 spare tasks spread evenly. No whole tile can leave the slow machine:
  // its receiver would then be the bottleneck.
  JobSpec spec = ctl::job_spec("heat2d", 24, 40, {{"size", "602x202"}, {"spare", "21"}});
  spec.runtime["placement"] = "even";
  std::map<std::uint32_t, double> late_load;  // cells per node late in the run
  auto connection = connect(1);
  ASSERT_NE(connection, nullptr);
  auto end = ctl::run_job(
      *connection, spec,
      [&](const JobProgress& p) {
        if (p.step + 3 != p.steps) return;
        auto client = connect(1);
        if (!client) return;
        auto tasks = ctl::query_tasks(*client, std::chrono::seconds(5));
        if (!tasks) return;
        late_load.clear();
        for (const auto& t : tasks->tasks) late_load[t.node] += t.load;
      },
      ctl::Clock::now() + std::chrono::seconds(150));
  ASSERT_TRUE(end.is_ok()) << end.error();
  const auto* result = std::get_if<JobResult>(&*end);
  ASSERT_NE(result, nullptr) << std::get<JobFailed>(*end).reason;
  EXPECT_EQ(result->checksum, serial_checksum(spec));
  std::cout << "splits " << result->splits << ", merges " << result->merges << ", migrations "
            << result->migrations << "\n";
  for (const auto& [node, load] : late_load) std::cout << "node " << node << ": " << load << " cells\n";
  EXPECT_GT(result->splits, 0u) << "the slow machine's tile never split";
  ASSERT_FALSE(late_load.empty()) << "no task list late in the run";
  const double total = late_load[1] + late_load[2] + late_load[3];
  EXPECT_LT(late_load[1], total / 3) << "the slow machine still holds a whole tile's cells";
  EXPECT_GT(late_load[3], late_load[1]);
}

}  // namespace
}  // namespace drift::test
