// parse_args: a word left over names itself, and the switch before it when that takes no value,
// instead of Boost's "too many positional options".
#include "ctl/command_line.h"

#include <gtest/gtest.h>

#include <boost/program_options.hpp>

namespace po = boost::program_options;

namespace drift::ctl {
namespace {

struct Parsed {
  Status status = Status::ok();
  po::variables_map vm;
};

Parsed parse(const std::vector<std::string>& args) {
  bool json = false, clump = false;
  int tasks = 0;
  std::string job;
  po::options_description options;
  options.add_options()("json", po::bool_switch(&json), "")("clump", po::bool_switch(&clump), "")(
      "tasks", po::value<int>(&tasks), "")("job", po::value<std::string>(&job), "");
  po::positional_options_description positional;
  positional.add("job", 1);
  Parsed p;
  p.status = parse_args(args, options, positional, p.vm);
  return p;
}

TEST(CommandLineTest, AValueAfterASwitchIsNamedWithTheSwitch) {
  const auto p = parse({"JOB", "--clump", "yes"});
  ASSERT_FALSE(p.status.is_ok());
  EXPECT_EQ(p.status.message(),
            "unexpected argument 'yes' (--clump takes no value: give it alone)");
}

TEST(CommandLineTest, AStrayWordElsewhereIsNamed) {
  const auto p = parse({"JOB", "--tasks", "4", "extra"});
  ASSERT_FALSE(p.status.is_ok());
  EXPECT_EQ(p.status.message(), "unexpected argument 'extra'");
}

// A word of dashes only ("-", "--") after the positional is a stray word too, not an exception
// out of the search for its option (driftctl result 0x5 - said 'basic_string::substr').
TEST(CommandLineTest, AWordOfDashesOnlyIsAUsageError) {
  for (const std::string dashes : {"-", "---"}) {
    Parsed p;
    ASSERT_NO_THROW(p = parse({"JOB", dashes})) << dashes;
    ASSERT_FALSE(p.status.is_ok()) << dashes;
    EXPECT_NE(p.status.message().find("'" + dashes + "'"), std::string::npos)
        << p.status.message();
  }
}

TEST(CommandLineTest, OptionValuesAndThePositionalParse) {
  const auto p = parse({"--tasks", "4", "JOB", "--json"});
  ASSERT_TRUE(p.status.is_ok()) << p.status.message();
  EXPECT_EQ(p.vm["job"].as<std::string>(), "JOB");
  EXPECT_EQ(p.vm["tasks"].as<int>(), 4);
}

}  // namespace
}  // namespace drift::ctl
