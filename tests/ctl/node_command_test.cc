// node_command: `local up --run K:COMMAND` parsing.
#include "ctl/node_command.h"

#include <gtest/gtest.h>

namespace drift::ctl {
namespace {

using Words = std::vector<std::string>;

TEST(NodeCommandTest, SplitsTheCommandAtBlanks) {
  auto c = parse_node_command("2:qemu-s390x  -L /usr/s390x-linux-gnu\tbuild-s390x/bin/driftd");
  ASSERT_TRUE(c) << c.status().message();
  EXPECT_EQ(c->node, 2);
  EXPECT_EQ(c->argv, (Words{"qemu-s390x", "-L", "/usr/s390x-linux-gnu", "build-s390x/bin/driftd"}));
}

TEST(NodeCommandTest, ErrorsQuoteTheText) {
  EXPECT_EQ(parse_node_command("qemu-i386").status().message(),
            "--run 'qemu-i386': no node number (expected K:COMMAND)");
  EXPECT_EQ(parse_node_command("x:driftd").status().message(),
            "--run 'x:driftd': bad node number (expected K:COMMAND)");
  EXPECT_EQ(parse_node_command("0:driftd").status().message(),
            "--run '0:driftd': bad node number (expected K:COMMAND)");
  EXPECT_EQ(parse_node_command("3:  ").status().message(),
            "--run '3:  ': empty command (expected K:COMMAND)");
}

TEST(NodeCommandTest, ByNodeRefusingUnknownAndRepeatedNodes) {
  auto ok = node_commands({"1:a b", "3:c"}, 3);
  ASSERT_TRUE(ok) << ok.status().message();
  EXPECT_EQ(ok->at(1), (Words{"a", "b"}));
  EXPECT_EQ(ok->at(3), (Words{"c"}));
  EXPECT_FALSE(node_commands({"4:c"}, 3));
  EXPECT_FALSE(node_commands({"1:a", "1:b"}, 3));
}

}  // namespace
}  // namespace drift::ctl
