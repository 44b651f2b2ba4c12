// Heterogeneous balancing on real daemons (docs/architecture.md §8): three emulated machines of speeds 1, 4
// and 12 run particles placed evenly, with diffusion balancing and dynamic capacities. The job's
// result equals the serial reference; the slow machine sends away more work than it ever takes
// back, the fast one takes work, and ends up with more tasks than the slow one.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "ctl/job_client.h"
#include "ctl/status_query.h"
#include "ctl/tasks_query.h"
#include "tests/integration/cluster_test_fixture.h"
#include "tests/integration/migration_harness.h"

namespace drift::test {
namespace {

constexpr int kBalancingSlot = 22;

TEST_F(ClusterTest, DiffusionMovesWorkFromTheSlowMachineToTheFastOne) {
  ctl::LocalClusterOptions options;
  options.driftd = bin_dir() / "driftd";
  options.stop_with_parent = true;
  // Each step of 200 particles costs 0.1 s at speed 1: an even split of 24 tasks gives the slow
  // node 0.8 s per step and the fast one 0.07 s.
  options.extra_args = {"--emulate.unit_rate=2000", "--balance.strategy=diffusion",
                        "--balance.capacity=dynamic", "--balance.period_ms=300",
                        "--balance.eff_min=0.9"};
  options.node_args[1] = {"--emulate.speed=1"};
  options.node_args[2] = {"--emulate.speed=4"};
  options.node_args[3] = {"--emulate.speed=12"};
  cluster_ = std::make_unique<ctl::LocalCluster>(dir_, options);
  ASSERT_NO_FATAL_FAILURE(start_cluster(3, kBalancingSlot));
  wait_for_load_reports(1);

  JobSpec spec = ctl::job_spec("particles", 24, 12, {{"cells", "240"}, {"particles", "4800"}});
  spec.runtime["placement"] = "even";
  auto serial = reference_run(spec);  // the spec with the application's defaults, and its checksum
  ASSERT_TRUE(serial.is_ok()) << serial.error();
  spec = serial->spec;

  // Tasks per node while the job runs (the last view before it ended).
  std::map<std::uint32_t, int> per_node;
  auto connection = connect(1);
  ASSERT_NE(connection, nullptr);
  auto end = ctl::run_job(
      *connection, spec,
      [&](const JobProgress& p) {
        if (p.step + 2 != p.steps) return;  // late in the run, once balanced
        auto client = connect(1);
        if (!client) return;
        auto tasks = ctl::query_tasks(*client, std::chrono::seconds(5));
        if (!tasks) return;
        per_node.clear();
        for (const auto& t : tasks->tasks) ++per_node[t.node];
      },
      ctl::Clock::now() + std::chrono::seconds(120));
  ASSERT_TRUE(end.is_ok()) << end.error();
  const auto* result = std::get_if<JobResult>(&*end);
  ASSERT_NE(result, nullptr) << std::get<JobFailed>(*end).reason;
  EXPECT_EQ(result->checksum, serial->checksum);
  EXPECT_GT(result->migrations, 0u);
  EXPECT_EQ(result->step_s.size(), 12u);

  auto slow = counters_of(1);
  ASSERT_TRUE(slow.is_ok()) << slow.error();
  EXPECT_GT(slow->balance_moves, 0u) << "the slow node sent nothing away";
  EXPECT_GT(slow->balance_moves, slow->migrations_in) << "the slow node took back what it sent";
  auto fast = counters_of(3);
  ASSERT_TRUE(fast.is_ok()) << fast.error();
  EXPECT_GT(fast->migrations_in, 0u) << "the fast node took nothing";
  ASSERT_FALSE(per_node.empty()) << "no task list late in the run";
  EXPECT_GT(per_node[3], per_node[1]) << "fast node " << per_node[3] << " tasks, slow node "
                                      << per_node[1];
}

}  // namespace
}  // namespace drift::test
