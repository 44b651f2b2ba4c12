// option_help: an application's help lines become its options (its own command line and
// driftctl's `run APP`).
#include "sdk/option_help.h"

#include <gtest/gtest.h>

namespace drift {
namespace {

TEST(OptionHelpTest, ParsesOptionNameValueNameAndHelp) {
  AppOption o;
  ASSERT_TRUE(parse_option_help("--size WxH   grid size (default 256x256)", o));
  EXPECT_EQ(o.key, "size");
  EXPECT_EQ(o.value_name, "WxH");
  EXPECT_EQ(o.help, "grid size (default 256x256)");
}

TEST(OptionHelpTest, LineWithoutValueNameIsAFlag) {
  AppOption o;
  ASSERT_TRUE(parse_option_help("--verbose  say more", o));
  EXPECT_EQ(o.key, "verbose");
  EXPECT_EQ(o.value_name, "");
  EXPECT_EQ(o.help, "say more");
}

TEST(OptionHelpTest, RefusesLinesThatAreNotOptions) {
  AppOption o;
  EXPECT_FALSE(parse_option_help("size WxH  no dashes", o));
  EXPECT_FALSE(parse_option_help("--  nothing", o));
  EXPECT_FALSE(parse_option_help("--Bad!  name", o));
}

TEST(OptionHelpTest, LeavesOutTheRunnersOwnOptionsAndLinesThatAreNoOptions) {
  const auto options = app_options({"--size WxH  grid size", "--steps S  steps", "a note",
                                    "--tasks N  tasks", "--spare N  spare tasks"},
                                   {"steps", "tasks"});
  ASSERT_EQ(options.size(), 2u);
  EXPECT_EQ(options[0].key, "size");
  EXPECT_EQ(options[1].key, "spare");
}

}  // namespace
}  // namespace drift
