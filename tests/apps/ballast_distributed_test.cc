// ballast's distributed checksum equals the serial reference's, with tasks migrating between
// any two handlers, and depends on the state size, steps and tasks.
#include <gtest/gtest.h>

#include "tests/support/app_registry.h"
#include "apps/ballast/ballast_app.h"
#include "tests/support/inprocess_runner.h"

namespace drift {
namespace {

using test_support::InProcessOptions;
using test_support::InProcessStats;
using test_support::run_in_process;

const Application& ballast() { return *builtin_apps().find("ballast"); }

TEST(BallastDistributed, MatchesSerialWhileMigrating) {
  for (const char* state : {"8", "1K", "100000", "1M"}) {
    const JobSpec spec{"ballast", 3, 20, {{"state", state}, {"work", "0"}}, {}};
    auto serial = ballast().run_serial(spec);
    ASSERT_TRUE(serial) << serial.error();
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      InProcessStats stats;
      auto out = run_in_process(ballast(), spec,
                                InProcessOptions{.seed = seed, .migrate_probability = 0.3}, &stats);
      ASSERT_TRUE(out) << out.error();
      EXPECT_EQ(out->checksum, serial->checksum) << state << " seed " << seed;
      EXPECT_EQ(out->details, serial->details);
      EXPECT_GT(stats.migrations, 0u);
    }
  }
}

TEST(BallastDistributed, ChecksumDependsOnTheRun) {
  auto run = [](const char* state, std::uint64_t steps, std::uint32_t tasks) {
    auto out = ballast().run_serial(JobSpec{"ballast", tasks, steps, {{"state", state}}, {}});
    EXPECT_TRUE(out);
    return out ? out->checksum : "";
  };
  const std::string base = run("1K", 10, 2);
  EXPECT_NE(base, run("2K", 10, 2));
  EXPECT_NE(base, run("1K", 11, 2));
  EXPECT_NE(base, run("1K", 10, 3));
  auto out = ballast().run_serial(JobSpec{"ballast", 2, 10, {{"state", "1K"}}, {}});
  EXPECT_EQ(out->details.at("state_bytes"), "2048");
}

}  // namespace
}  // namespace drift
