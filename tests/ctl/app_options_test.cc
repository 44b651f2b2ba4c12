// app_options: an application's option help lines become `driftctl run APP` options.
#include "ctl/app_options.h"

#include <gtest/gtest.h>

#include <boost/program_options.hpp>

namespace drift::ctl {
namespace {

TEST(AppOptionsTest, HelpLinesSkipDriftctlsOwnAndFillParams) {
  const std::vector<std::string> help = {"--size WxH  grid size (default 256x256)",
                                         "--steps S  steps (default 100)",
                                         "--tasks N  tiles (default 4)"};
  const auto options = app_options(help, {"steps", "tasks"});
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
