// An emulated machine measures what it emulates (docs/architecture.md §8.1, §8.6): heat2d on a driftd
// with emulate.speed = 2 and unit_rate = 1000 makes it advertise ~2000 work units per second
// (driftctl status --json), measured through ctx.compute, not read from the settings; a node
// with one emulated competing process advertises half that and reports the load, counted once.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ctl/job_client.h"
#include "ctl/status_query.h"
#include "ctl/status_view.h"
#include "tests/integration/cluster_test_fixture.h"
#include "tests/integration/migration_harness.h"

namespace drift::test {
namespace {

constexpr int kEmulatedCapacitySlot = 21;

class EmulatedCapacityTest : public ClusterTest {
 protected:
  // What `driftctl status --json` prints, asked of node 1: the entry of node `id`.
  nlohmann::json status_of(std::uint32_t id) {
    auto reply = ctl::query_status(connect_options(1), std::chrono::seconds(5));
    EXPECT_TRUE(reply.is_ok()) << reply.error();
    if (!reply) return {};
    const nlohmann::json status = status_json(*reply);
    for (const auto& node : status["nodes"]) {
      if (node["id"] == id) return node;
    }
    ADD_FAILURE() << "no node " << id << " in " << status.dump();
    return {};
  }
};

TEST_F(EmulatedCapacityTest, Heat2dMeasuresTheEmulatedSpeed) {
  ctl::LocalClusterOptions options;
  options.driftd = bin_dir() / "driftd";
  options.stop_with_parent = true;
  // node.capacity = 1 is the static estimate: anything near 2000 was measured.
  options.extra_args = {"--emulate.speed=2", "--emulate.unit_rate=1000", "--node.capacity=1"};
  options.node_args[2] = {"--emulate.load=0:0:1"};  // one competing process from the start
  cluster_ = std::make_unique<ctl::LocalCluster>(dir_, options);
  ASSERT_NO_FATAL_FAILURE(start_cluster(2, kEmulatedCapacitySlot));
  wait_for_load_reports(1);
  EXPECT_EQ(status_of(1)["capacity"], 1.0);
  EXPECT_EQ(status_of(2)["capacity"], 0.5);  // the static estimate, shared with the load

  // Two tasks of ~450 cells, one per node: ~0.23 s and ~0.45 s of emulated compute per step.
  JobSpec spec = ctl::job_spec("heat2d", 2, 6, {{"size", "32x32"}});
  auto serial = reference_run(spec);  // the spec with the application's defaults, and its checksum
  ASSERT_TRUE(serial.is_ok()) << serial.error();
  spec = serial->spec;
  auto connection = connect(1);
  ASSERT_NE(connection, nullptr);
  auto end = ctl::run_job(
      *connection, spec, [](const JobProgress&) {}, ctl::Clock::now() + std::chrono::seconds(90));
  ASSERT_TRUE(end.is_ok()) << end.error();
  if (auto* failed = std::get_if<JobFailed>(&*end)) FAIL() << "job failed: " << failed->reason;
  EXPECT_EQ(std::get<JobResult>(*end).checksum, serial->checksum);

  // A compute never ends before its emulated time, so the measurements stay at or below the
  // emulated rates; the lower bounds allow a slow, shared test machine.
  const nlohmann::json fast = status_of(1);
  const double fast_capacity = fast["capacity"];
  EXPECT_GT(fast_capacity, 1000) << fast.dump();
  EXPECT_LE(fast_capacity, 2000 * 1.01) << fast.dump();
  EXPECT_EQ(fast["load_average"], 0.0) << fast.dump();
  const nlohmann::json loaded = status_of(2);
  const double loaded_capacity = loaded["capacity"];
  EXPECT_GT(loaded_capacity, 500) << loaded.dump();
  EXPECT_LE(loaded_capacity, 1000 * 1.01) << loaded.dump();  // not 500: no double counting
  EXPECT_EQ(loaded["load_average"], 1.0) << loaded.dump();
  std::cout << "emulated capacities: speed 2 -> " << fast_capacity
            << " units/s, speed 2 with one competing process -> " << loaded_capacity << "\n";
}

}  // namespace
}  // namespace drift::test
