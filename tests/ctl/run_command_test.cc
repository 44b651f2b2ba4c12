// run_command: --chaos-migrations becomes JobSpec::runtime["chaos_migrations"], cluster runs only.
#include "ctl/run_command.h"

#include <gtest/gtest.h>

#include <string>

#include "ctl/exit_codes.h"
#include "tests/ctl/cli_runner.h"

namespace drift::ctl {
namespace {

TEST(RunCommandTest, ChaosMigrationsGoIntoTheRuntimeOptions) {
  JobSpec spec;
  ASSERT_TRUE(add_runtime_options(spec, {3, 2}, false));
  EXPECT_EQ(spec.runtime.at("chaos_migrations"), "3");
  EXPECT_EQ(spec.runtime.at("chaos_grain"), "2");
  EXPECT_TRUE(spec.params.empty());
}

TEST(RunCommandTest, NoChaosLeavesTheRuntimeOptionsEmpty) {
  JobSpec spec;
  ASSERT_TRUE(add_runtime_options(spec, {}, true));
  EXPECT_TRUE(spec.runtime.empty());
}

TEST(RunCommandTest, ChaosWithSerialIsAUsageError) {
  JobSpec spec;
  const Status s = add_runtime_options(spec, {2, 0}, true);
  ASSERT_FALSE(s);
  EXPECT_NE(s.message().find("--chaos-migrations 2"), std::string::npos) << s.message();
  const auto outcome = test::run_driftctl("run heat2d --serial --steps 1 --chaos-migrations 2");
  EXPECT_EQ(outcome.exit_code, kExitUsage);
  EXPECT_NE(outcome.err.find("--serial"), std::string::npos) << outcome.err;
}

// Boost reads "-1" into an unsigned option as its largest value: `--steps -1` ran a job that
// never ended. Negative, signed, out-of-range and zero counts are usage errors naming the value
// (0 was taken for "the application's default").
TEST(RunCommandTest, NegativeOrHugeCountsAreUsageErrors) {
  for (const char* bad : {"--steps -1", "--tasks -1", "--tasks +3", "--chaos-migrations -1",
                          "--tasks 0", "--steps 0", "--timeout 0", "--timeout -1",
                          "--timeout nan",
                          "--steps 99999999999999999999999", "--tasks 4294967296", "--steps 5x"}) {
    const auto outcome = test::run_driftctl(std::string("run heat2d --serial ") + bad);
    EXPECT_EQ(outcome.exit_code, kExitUsage) << bad;
    const std::string value = std::string(bad).substr(std::string(bad).find(' ') + 1);
    const bool named = outcome.err.find("('" + value + "')") != std::string::npos ||
                       outcome.err.find(std::string(bad) + ":") != std::string::npos;
    EXPECT_TRUE(named) << bad << ": " << outcome.err;
  }
  const auto good = test::run_driftctl("run heat2d --serial --steps 3 --tasks 2");
  EXPECT_EQ(good.exit_code, kExitOk) << good.err;
  EXPECT_NE(good.out.find("steps       3"), std::string::npos) << good.out;
  EXPECT_NE(good.out.find("tasks       2"), std::string::npos) << "the tasks it was asked with\n"
                                                              << good.out;
}

TEST(RunCommandTest, HelpDocumentsChaosMigrations) {
  const auto outcome = test::run_driftctl("run heat2d --help");
  EXPECT_EQ(outcome.exit_code, kExitOk);
  EXPECT_NE(outcome.out.find("--chaos-migrations N"), std::string::npos) << outcome.out;
}

}  // namespace
}  // namespace drift::ctl
