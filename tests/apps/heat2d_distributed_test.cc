// The key property of heat2d: the distributed checksum equals the serial reference's, bit for
// bit, for any tile count, any delivery order and with tasks migrating between any two handlers.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "tests/support/app_registry.h"
#include "apps/heat2d/heat2d_app.h"
#include "tests/support/inprocess_runner.h"

namespace drift {
namespace {

using test_support::InProcessOptions;
using test_support::InProcessStats;
using test_support::run_in_process;

struct Grid {
  const char* size;
  std::uint64_t steps;
};

class Heat2dDistributed : public ::testing::TestWithParam<std::tuple<Grid, std::uint32_t>> {};

TEST_P(Heat2dDistributed, MatchesSerialBitForBit) {
  const auto [grid, tasks] = GetParam();
  const Application& app = *builtin_apps().find("heat2d");
  const JobSpec spec{"heat2d", tasks, grid.steps, {{"size", grid.size}}, {}};
  auto serial = app.run_serial(spec);
  ASSERT_TRUE(serial) << serial.error();
  std::uint64_t migrations = 0;
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    InProcessOptions options{.seed = seed * 7919 + tasks, .migrate_probability = 0.1};
    options.deliver_before_start = seed == 3;
    InProcessStats stats;
    auto out = run_in_process(app, spec, options, &stats);
    ASSERT_TRUE(out) << out.error();
    EXPECT_EQ(out->checksum, serial->checksum)
        << grid.size << " tasks " << tasks << " seed " << seed;
    EXPECT_EQ(out->details.at("max_change"), serial->details.at("max_change"));
    EXPECT_EQ(stats.reductions, grid.steps);
    migrations += stats.migrations;
  }
  if (tasks > 1) {
    EXPECT_GT(migrations, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(GridsAndTasks, Heat2dDistributed,
                         ::testing::Combine(::testing::Values(Grid{"40x40", 12}, Grid{"31x17", 15},
                                                              Grid{"13x53", 10}, Grid{"64x29", 8}),
                                            ::testing::Values(1u, 2u, 3u, 4u, 6u, 7u, 16u, 25u)),
                         [](const auto& info) {
                           std::string size = std::get<0>(info.param).size;
                           return "size" + size + "_tasks" +
                                  std::to_string(std::get<1>(info.param));
                         });

TEST(Heat2dDistributedTest, EveryHandlerMigrates) {
  const Application& app = *builtin_apps().find("heat2d");
  const JobSpec spec{"heat2d", 6, 6, {{"size", "23x19"}}, {}};
  auto serial = app.run_serial(spec);
  auto out = run_in_process(app, spec, {.seed = 11, .migrate_probability = 1.0});
  ASSERT_TRUE(serial && out) << (out ? serial.error() : out.error());
  EXPECT_EQ(out->checksum, serial->checksum);
}

TEST(Heat2dDistributedTest, ChecksumDependsOnTheRun) {
  const Application& app = *builtin_apps().find("heat2d");
  auto a = run_in_process(app, JobSpec{"heat2d", 4, 5, {{"size", "20x20"}}, {}});
  auto b = run_in_process(app, JobSpec{"heat2d", 4, 6, {{"size", "20x20"}}, {}});
  ASSERT_TRUE(a && b);
  EXPECT_NE(a->checksum, b->checksum);
}

}  // namespace
}  // namespace drift
