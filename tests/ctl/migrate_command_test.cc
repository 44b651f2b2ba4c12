// migrate_command: NODE_ID and JOB:INDEX NODE_ID checked before any daemon is asked; usage
// errors exit 2 naming the bad value.
#include "ctl/migrate_command.h"

#include <gtest/gtest.h>

#include "ctl/exit_codes.h"
#include "tests/ctl/cli_runner.h"

namespace drift::ctl {
namespace {

using test::run_driftctl;

TEST(MigrateCommandTest, NodeIdsArePositiveDecimals) {
  EXPECT_EQ(*parse_node_id("3"), 3u);
  EXPECT_EQ(*parse_node_id("4294967295"), 4294967295u);
  for (const char* bad : {"", "0", "-3", "+3", "3x", "0x3", "4294967296", " 3"}) {
    auto id = parse_node_id(bad);
    ASSERT_FALSE(id) << bad;
    EXPECT_NE(id.error().find(std::string("NODE_ID '") + bad + "'"), std::string::npos)
        << id.error();
  }
}

TEST(MigrateCommandTest, TargetIsTaskThenNode) {
  auto r = parse_migrate_target({"0x1a2b3c0001:5", "3"});
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->task, (TaskId{0x1a2b3c0001, 5}));
  EXPECT_EQ(r->dest, 3u);
  auto decimal = parse_migrate_target({"26:0", "1"});
  ASSERT_TRUE(decimal) << decimal.error();
  EXPECT_EQ(decimal->task, (TaskId{26, 0}));
}

TEST(MigrateCommandTest, WrongNumberOfArgumentsIsSaid) {
  EXPECT_NE(parse_migrate_target({}).error().find("expected JOB:INDEX NODE_ID, got 0"),
            std::string::npos);
  EXPECT_NE(parse_migrate_target({"1:2"}).error().find("got 1 argument"), std::string::npos);
  EXPECT_NE(parse_migrate_target({"1:2", "3", "4"}).error().find("got 3 arguments"),
            std::string::npos);
}

TEST(MigrateCommandTest, BadArgumentsExitTwoNamingTheValue) {
  struct Case {
    const char* args;
    const char* named;
  };
  for (const Case& c :
       {Case{"migrate", "got 0"}, Case{"migrate 1a2b:5 3", "'1a2b'"},
        Case{"migrate 0x1a2b:five 3", "'five'"}, Case{"migrate 0x1a2b:5 0", "NODE_ID '0'"},
        Case{"migrate 0x1a2b:5 node3", "NODE_ID 'node3'"},
        Case{"migrate 0x1a2b:5 3 --timeout 0", "--timeout '0'"},
        Case{"migrate 0x1a2b:5 3 --timeout soon", "soon"},
        Case{"migrate 0x1a2b:5 3 --node nowhere", "nowhere"}}) {
    const auto outcome = run_driftctl(c.args);
    EXPECT_EQ(outcome.exit_code, kExitUsage) << c.args;
    EXPECT_NE(outcome.err.find(c.named), std::string::npos) << c.args << ": " << outcome.err;
    EXPECT_NE(outcome.err.find("driftctl migrate --help"), std::string::npos) << outcome.err;
  }
}

TEST(MigrateCommandTest, HelpShowsTheFormsAndNoInternalOption) {
  const auto outcome = run_driftctl("migrate --help");
  EXPECT_EQ(outcome.exit_code, kExitOk);
  EXPECT_NE(outcome.out.find("migrate JOB:INDEX NODE_ID"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("--timeout"), std::string::npos) << outcome.out;
  EXPECT_EQ(outcome.out.find("--target"), std::string::npos) << outcome.out;
}

TEST(MigrateCommandTest, TasksAndMigrateAreListedCommands) {
  const auto help = run_driftctl("--help");
  EXPECT_NE(help.out.find("tasks [--json]"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("migrate JOB:INDEX NODE_ID"), std::string::npos) << help.out;
  EXPECT_EQ(run_driftctl("tasks --help").exit_code, kExitOk);
  const auto bad = run_driftctl("tasks --frob");
  EXPECT_EQ(bad.exit_code, kExitUsage);
  EXPECT_NE(bad.err.find("frob"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace drift::ctl
