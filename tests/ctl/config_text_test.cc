// config_text: driftd's INI config edited as text.
#include "ctl/config_text.h"

#include <gtest/gtest.h>

namespace drift::ctl::config_text {
namespace {

const std::string kBase =
    "# a comment\n[node]\nid = 1\n# address = 10.0.0.1\nport=7400\n\n[cluster]\nname = office\n";

TEST(ConfigTextTest, GetsTrimmedValuesOfUncommentedLines) {
  EXPECT_EQ(get(kBase, "node.id"), "1");
  EXPECT_EQ(get(kBase, "node.port"), "7400");
  EXPECT_EQ(get(kBase, "cluster.name"), "office");
  EXPECT_EQ(get(kBase, "node.address"), std::nullopt) << "a commented line sets nothing";
  EXPECT_EQ(get(kBase, "cluster.id"), std::nullopt) << "keys belong to their section";
}

TEST(ConfigTextTest, SetReplacesTheLineInPlace) {
  EXPECT_EQ(set(kBase, "node.id", "7"),
            "# a comment\n[node]\nid = 7\n# address = 10.0.0.1\nport=7400\n\n[cluster]\nname = office\n");
}

TEST(ConfigTextTest, SetAddsAMissingKeyAtTheEndOfItsSection) {
  EXPECT_EQ(set(kBase, "node.address", "10.0.0.2"),
            "# a comment\n[node]\nid = 1\n# address = 10.0.0.1\nport=7400\naddress = 10.0.0.2\n\n"
            "[cluster]\nname = office\n");
}

TEST(ConfigTextTest, SetAddsAMissingSectionAtTheEnd) {
  EXPECT_EQ(set(kBase, "log.level", "debug"), kBase + "\n[log]\nlevel = debug\n");
  EXPECT_EQ(set("", "node.id", "3"), "[node]\nid = 3\n");
}

TEST(ConfigTextTest, SetCommentsOutLaterDuplicates) {
  EXPECT_EQ(set("[node]\nid = 1\nid = 2\n", "node.id", "5"), "[node]\nid = 5\n# (set above) id = 2\n");
}

TEST(ConfigTextTest, CommentOutSaysWhy) {
  EXPECT_EQ(comment_out("[cluster]\nseeds = a:1\nname = x\n", "cluster.seeds", "no seeds"),
            "[cluster]\n# (no seeds) seeds = a:1\nname = x\n");
}

}  // namespace
}  // namespace drift::ctl::config_text
