// run_command: --chaos-migrations becomes JobSpec::runtime["chaos_migrations"], cluster runs only.
#include "ctl/run_command.h"

#include <gtest/gtest.h>

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

TEST(RunCommandTest, HelpDocumentsChaosMigrations) {
  const auto outcome = test::run_driftctl("run heat2d --help");
  EXPECT_EQ(outcome.exit_code, kExitOk);
  EXPECT_NE(outcome.out.find("--chaos-migrations N"), std::string::npos) << outcome.out;
}

}  // namespace
}  // namespace drift::ctl
