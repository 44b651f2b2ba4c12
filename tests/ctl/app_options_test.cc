// app_options: an application's option help lines become `driftctl run APP` options.
#include "node/tasks/app_registry.h"
#include "ctl/app_options.h"

#include <gtest/gtest.h>

#include <boost/program_options.hpp>

namespace drift::ctl {
namespace {

TEST(AppOptionsTest, ParsesOptionNameValueNameAndHelp) {
  AppOption o;
  ASSERT_TRUE(parse_option_help("--size WxH   grid size (default 256x256)", o));
  EXPECT_EQ(o.key, "size");
  EXPECT_EQ(o.value_name, "WxH");
  EXPECT_EQ(o.help, "grid size (default 256x256)");
}

TEST(AppOptionsTest, LineWithoutValueNameIsAFlag) {
  AppOption o;
  ASSERT_TRUE(parse_option_help("--verbose  say more", o));
  EXPECT_EQ(o.key, "verbose");
  EXPECT_EQ(o.value_name, "");
  EXPECT_EQ(o.help, "say more");
}

TEST(AppOptionsTest, RefusesLinesThatAreNotOptions) {
  AppOption o;
  EXPECT_FALSE(parse_option_help("size WxH  no dashes", o));
  EXPECT_FALSE(parse_option_help("--  nothing", o));
  EXPECT_FALSE(parse_option_help("--Bad!  name", o));
}

TEST(AppOptionsTest, Heat2dOptionsSkipDriftctlsOwnAndFillParams) {
  const auto* app = builtin_apps().find("heat2d");
  ASSERT_NE(app, nullptr);
  const auto options = app_options(*app, {"steps", "tasks"});
  ASSERT_FALSE(options.empty());
  for (const auto& o : options) EXPECT_TRUE(o.key != "steps" && o.key != "tasks") << o.key;

  namespace po = boost::program_options;
  po::variables_map vm;
  const std::vector<std::string> args = {"--size", "64x32"};
  po::store(po::command_line_parser(args).options(describe_app_options("heat2d", options)).run(),
            vm);
  EXPECT_EQ(app_params(options, vm), (std::map<std::string, std::string>{{"size", "64x32"}}));
}

}  // namespace
}  // namespace drift::ctl
