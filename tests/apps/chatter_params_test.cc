// chatter's options: defaults, given values, ranges, unknown keys; errors name key and value.
#include "apps/chatter/chatter_params.h"

#include <gtest/gtest.h>

namespace drift::chatter {
namespace {

std::string chatter_error(JobSpec spec) {
  auto p = parse_params(spec);
  return p ? "ok" : p.error();
}

TEST(ChatterParams, DefaultsAreFilledIn) {
  JobSpec spec{"chatter", 0, 0, {}, {}};
  ASSERT_TRUE(fill_and_validate(spec));
  EXPECT_EQ(spec.tasks, 8u);
  EXPECT_EQ(spec.steps, 100u);
  EXPECT_EQ(spec.params.at("fanout"), "4");
  EXPECT_EQ(spec.params.at("payload"), "64");
  EXPECT_EQ(spec.params.at("work"), "0");
  EXPECT_EQ(*parse_params(spec), (Params{8, 100, 4, 64, 0}));
}

TEST(ChatterParams, ReadsGivenValues) {
  JobSpec spec{"chatter", 32, 7, {{"fanout", "9"}, {"payload", "1M"}, {"work", "250"}}, {}};
  ASSERT_TRUE(fill_and_validate(spec));
  EXPECT_EQ(spec.params.at("payload"), "1048576");
  EXPECT_EQ(*parse_params(spec), (Params{32, 7, 9, 1u << 20, 250}));
  EXPECT_TRUE(parse_params(JobSpec{"chatter", 2, 1, {{"payload", "0"}}, {}}));
}

TEST(ChatterParams, BadValuesNameKeyAndValue) {
  EXPECT_EQ(chatter_error({"chatter", 1, 0, {}, {}}),
            "chatter: tasks = 1: expected from 2 to 1024");
  EXPECT_EQ(chatter_error({"chatter", 0, 0, {{"fanout", "0"}}, {}}),
            "chatter: fanout = '0': expected a whole number from 1 to 1024");
  EXPECT_EQ(chatter_error({"chatter", 0, 0, {{"payload", "2M"}}, {}}),
            "chatter: payload = '2M': expected a byte count (e.g. 4096, 64K, 1M) from 0 to 1M");
  EXPECT_NE(chatter_error({"chatter", 0, 0, {{"work", "-1"}}, {}}).find("work = '-1'"),
            std::string::npos);
  EXPECT_EQ(chatter_error({"chatter", 0, 0, {{"fan", "2"}}, {}}),
            "chatter: unknown parameter 'fan' = '2' (chatter knows: fanout, payload, work)");
}

TEST(ChatterParams, HelpListsEveryOption) {
  const auto help = option_help();
  for (const char* key : {"--fanout", "--payload", "--work", "--steps", "--tasks"}) {
    EXPECT_TRUE(std::any_of(help.begin(), help.end(), [&](const std::string& l) {
      return l.starts_with(key);
    })) << key;
  }
}

}  // namespace
}  // namespace drift::chatter
