// The key property of chatter: the distributed checksum equals the serial reference's for any
// delivery order and with tasks migrating between any two handlers; a changed run changes it.
#include <gtest/gtest.h>

#include "tests/support/app_registry.h"
#include "apps/chatter/chatter_app.h"
#include "tests/support/inprocess_runner.h"

namespace drift {
namespace {

using test_support::InProcessOptions;
using test_support::InProcessStats;
using test_support::run_in_process;

const Application& chatter() { return *builtin_apps().find("chatter"); }

struct ChatterCase {
  std::uint32_t tasks;
  std::uint64_t steps;
  const char* fanout;
  const char* payload;
};

class ChatterDistributed : public ::testing::TestWithParam<ChatterCase> {};

TEST_P(ChatterDistributed, MatchesSerial) {
  const ChatterCase c = GetParam();
  const JobSpec spec{
      "chatter", c.tasks, c.steps, {{"fanout", c.fanout}, {"payload", c.payload}}, {}};
  auto serial = chatter().run_serial(spec);
  ASSERT_TRUE(serial) << serial.error();
  std::uint64_t migrations = 0;
  for (std::uint64_t seed : {1u, 2u, 3u, 4u}) {
    InProcessOptions options{.seed = seed * 104729 + c.tasks, .migrate_probability = 0.2};
    options.deliver_before_start = seed == 4;
    InProcessStats stats;
    auto out = run_in_process(chatter(), spec, options, &stats);
    ASSERT_TRUE(out) << out.error();
    EXPECT_EQ(out->checksum, serial->checksum) << "seed " << seed;
    EXPECT_EQ(out->details, serial->details);
    EXPECT_EQ(stats.messages, std::stoull(serial->details.at("messages")));
    EXPECT_EQ(stats.reductions, c.steps);
    migrations += stats.migrations;
  }
  EXPECT_GT(migrations, 0u);
}

INSTANTIATE_TEST_SUITE_P(Sizes, ChatterDistributed,
                         ::testing::Values(ChatterCase{2, 5, "1", "0"},
                                           ChatterCase{3, 12, "4", "64"},
                                           ChatterCase{8, 10, "4", "100"},
                                           ChatterCase{16, 6, "7", "1K"},
                                           ChatterCase{32, 4, "4", "9"}));

TEST(ChatterDistributedTest, EveryHandlerMigrates) {
  const JobSpec spec{"chatter", 6, 8, {{"payload", "33"}}, {}};
  auto serial = chatter().run_serial(spec);
  auto out = run_in_process(chatter(), spec, {.seed = 5, .migrate_probability = 1.0});
  ASSERT_TRUE(serial && out) << (out ? serial.error() : out.error());
  EXPECT_EQ(out->checksum, serial->checksum);
}

TEST(ChatterDistributedTest, ChecksumDependsOnTheRun) {
  auto base = chatter().run_serial(JobSpec{"chatter", 4, 5, {}, {}});
  auto steps = chatter().run_serial(JobSpec{"chatter", 4, 6, {}, {}});
  auto payload = chatter().run_serial(JobSpec{"chatter", 4, 5, {{"payload", "65"}}, {}});
  auto tasks = chatter().run_serial(JobSpec{"chatter", 5, 5, {}, {}});
  ASSERT_TRUE(base && steps && payload && tasks);
  EXPECT_NE(base->checksum, steps->checksum);
  EXPECT_NE(base->checksum, payload->checksum);
  EXPECT_NE(base->checksum, tasks->checksum);
  EXPECT_EQ(base->details.at("messages"), "80");
  EXPECT_EQ(base->details.at("bytes"), "5120");
}

TEST(ChatterDistributedTest, MalformedResultIsReported) {
  JobSpec spec{"chatter", 2, 1, {}, {}};
  ASSERT_TRUE(chatter().validate(spec));
  auto out = chatter().combine(spec, {{}, {}});
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().find("chatter: result of task 0 is malformed (0 bytes)"),
            std::string::npos);
  EXPECT_FALSE(chatter().combine(spec, {{}}));
}

}  // namespace
}  // namespace drift
