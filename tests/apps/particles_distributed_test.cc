// The key property of particles: the distributed checksum equals the serial reference's, bit for
// bit, for any task count, any delivery order and with tasks migrating (state saved and restored
// into a fresh task) between any two handlers.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/app_registry.h"
#include "apps/particles/particles_app.h"
#include "tests/support/inprocess_runner.h"

namespace drift {
namespace {

using test_support::InProcessOptions;
using test_support::InProcessStats;
using test_support::run_in_process;

// Strong drift in a small box: many particles cross task boundaries every step.
JobSpec small_job(std::uint32_t tasks, std::uint64_t steps = 15) {
  return JobSpec{"particles",
                 tasks,
                 steps,
                 {{"cells", "48"}, {"particles", "3000"}, {"seed", "3"}, {"drift", "20000"}},
                 {}};
}

const Application& app() { return *builtin_apps().find("particles"); }

class ParticlesDistributed : public ::testing::TestWithParam<std::uint32_t> {};

TEST_P(ParticlesDistributed, MatchesSerialBitForBit) {
  const std::uint32_t tasks = GetParam();
  const JobSpec spec = small_job(tasks);
  auto serial = app().run_serial(spec);
  ASSERT_TRUE(serial) << serial.error();
  std::uint64_t migrations = 0;
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    InProcessOptions options{.seed = seed * 7919 + tasks, .migrate_probability = 0.1};
    options.deliver_before_start = seed == 3;
    InProcessStats stats;
    auto out = run_in_process(app(), spec, options, &stats);
    ASSERT_TRUE(out) << out.error();
    EXPECT_EQ(out->checksum, serial->checksum) << "tasks " << tasks << " seed " << seed;
    EXPECT_EQ(out->details, serial->details);
    EXPECT_EQ(stats.reductions, spec.steps);
    migrations += stats.migrations;
  }
  EXPECT_GT(migrations, 0u);
}

INSTANTIATE_TEST_SUITE_P(TaskCounts, ParticlesDistributed,
                         ::testing::Values(1u, 2u, 3u, 7u, 16u, 48u),
                         [](const auto& info) { return "tasks" + std::to_string(info.param); });

TEST(ParticlesDistributedTest, WithoutMigrationsToo) {
  const JobSpec spec = small_job(5);
  auto serial = app().run_serial(spec);
  auto out = run_in_process(app(), spec, {.seed = 5});
  ASSERT_TRUE(serial && out) << (out ? serial.error() : out.error());
  EXPECT_EQ(out->checksum, serial->checksum);
}

TEST(ParticlesDistributedTest, EveryHandlerMigrates) {
  const JobSpec spec = small_job(6, 8);
  auto serial = app().run_serial(spec);
  auto out = run_in_process(app(), spec, {.seed = 11, .migrate_probability = 1.0});
  ASSERT_TRUE(serial && out) << (out ? serial.error() : out.error());
  EXPECT_EQ(out->checksum, serial->checksum);
}

TEST(ParticlesDistributedTest, DetailsShowTheLoadAndEnergy) {
  auto out = run_in_process(app(), small_job(4));
  ASSERT_TRUE(out) << out.error();
  EXPECT_EQ(out->details.at("particles"), "3000");
  EXPECT_GT(std::stod(out->details.at("kinetic_energy")), 0.0);
  EXPECT_LT(std::stoull(out->details.at("min_task_particles")),
            std::stoull(out->details.at("max_task_particles")));
}

TEST(ParticlesDistributedTest, SeedChangesTheChecksum) {
  JobSpec other = small_job(3);
  other.params["seed"] = "4";
  auto a = run_in_process(app(), small_job(3));
  auto b = run_in_process(app(), other);
  ASSERT_TRUE(a && b);
  EXPECT_NE(a->checksum, b->checksum);
}

}  // namespace
}  // namespace drift
