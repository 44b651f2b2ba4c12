// node_setting: `local up --set K:key=value` parsing and per-daemon arguments.
#include "ctl/node_setting.h"

#include <gtest/gtest.h>

namespace drift::ctl {
namespace {

TEST(NodeSettingTest, ParsesNodeKeyAndValue) {
  auto s = parse_node_setting("3:emulate.speed=6.8");
  ASSERT_TRUE(s) << s.status().message();
  EXPECT_EQ(s->node, 3);
  EXPECT_EQ(s->key, "emulate.speed");
  EXPECT_EQ(s->value, "6.8");
  EXPECT_EQ(s->argument(), "--emulate.speed=6.8");
}

TEST(NodeSettingTest, ValueMayContainColonsAndEquals) {
  auto s = parse_node_setting("2:emulate.load=10:5:1.5");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->value, "10:5:1.5");
}

TEST(NodeSettingTest, ErrorsQuoteTheTextAndSayWhy) {
  EXPECT_EQ(parse_node_setting("emulate.speed=6").status().message(),
            "--set 'emulate.speed=6': expected K:key=value, K the daemon's number (e.g. "
            "3:emulate.speed=6)");
  EXPECT_EQ(parse_node_setting("x:a.b=1").status().message(),
            "--set 'x:a.b=1': 'x' is not a daemon number");
  EXPECT_EQ(parse_node_setting("0:a.b=1").status().message(),
            "--set '0:a.b=1': daemon numbers start at 1");
  EXPECT_EQ(parse_node_setting("1:=1").status().message(),
            "--set '1:=1': expected key=value after the daemon number");
  EXPECT_EQ(parse_node_setting("1:a b=1").status().message(),
            "--set '1:a b=1': 'a b' is not a config key (section.name)");
}

TEST(NodeSettingTest, GroupsArgumentsPerDaemonAndChecksTheCount) {
  auto args = node_arguments({"1:emulate.speed=1", "3:emulate.speed=6", "1:balance.sensing=once"}, 3);
  ASSERT_TRUE(args);
  EXPECT_EQ((*args)[1], (std::vector<std::string>{"--emulate.speed=1", "--balance.sensing=once"}));
  EXPECT_EQ((*args)[3], (std::vector<std::string>{"--emulate.speed=6"}));
  EXPECT_EQ(args->count(2), 0u);
  EXPECT_EQ(node_arguments({"4:a.b=1"}, 3).status().message(),
            "--set '4:a.b=1': there are only 3 daemons");
}

}  // namespace
}  // namespace drift::ctl
