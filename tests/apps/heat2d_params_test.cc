#include "apps/heat2d/heat2d_params.h"

#include <gtest/gtest.h>

#include <string>

namespace drift::heat2d {
namespace {

JobSpec heat2d_spec(std::string size, std::uint32_t tasks = 0, std::uint64_t steps = 0) {
  JobSpec spec{"heat2d", tasks, steps, {}, {}};
  spec.params["size"] = std::move(size);
  return spec;
}

std::string heat2d_error(const JobSpec& spec) {
  auto p = parse_params(spec);
  return p ? "ok" : p.error();
}

TEST(Heat2dParams, DefaultsAreFilledIn) {
  JobSpec spec{"heat2d", 0, 0, {}, {}};
  ASSERT_TRUE(fill_and_validate(spec));
  EXPECT_EQ(spec.params.at("size"), "256x256");
  EXPECT_EQ(spec.steps, 100u);
  EXPECT_EQ(spec.tasks, 4u);
  EXPECT_EQ(spec.params.at("spare"), "0");
  auto p = parse_params(spec);
  ASSERT_TRUE(p);
  EXPECT_EQ(*p, (Params{256, 256, 100, 4, 0}));
}

TEST(Heat2dParams, FillingInIsIdempotent) {
  JobSpec spec = heat2d_spec("31x17", 8, 12);
  spec.params["spare"] = "003";
  ASSERT_TRUE(fill_and_validate(spec));
  EXPECT_EQ(spec.params.at("spare"), "3");
  const JobSpec once = spec;
  ASSERT_TRUE(fill_and_validate(spec));
  EXPECT_EQ(spec, once);
}

TEST(Heat2dParams, SpareTasksStartWithoutATile) {
  JobSpec spec = heat2d_spec("31x17", 8, 12);
  spec.params["spare"] = "3";
  auto p = parse_params(spec);
  ASSERT_TRUE(p) << p.error();
  EXPECT_EQ(*p, (Params{31, 17, 12, 8, 3}));
  EXPECT_EQ(p->tiles(), 5u);
  spec.params["spare"] = "7";
  EXPECT_TRUE(parse_params(spec));
}

TEST(Heat2dParams, SpareNamesKeyAndValue) {
  JobSpec spec = heat2d_spec("31x17", 8, 12);
  spec.params["spare"] = "9";
  EXPECT_EQ(heat2d_error(spec), "spare = '9' must be less than tasks = 8");
  spec.params["spare"] = "8";
  EXPECT_EQ(heat2d_error(spec), "spare = '8' must be less than tasks = 8");
  for (const char* bad : {"", "-1", "+1", "1.5", "two", " 1", "99999999999"}) {
    spec.params["spare"] = bad;
    EXPECT_EQ(heat2d_error(spec),
              std::string("spare = '") + bad + "': expected a whole number of tasks, e.g. 2");
  }
}

TEST(Heat2dParams, TilesLeftBySpareMustFitTheGrid) {
  JobSpec spec = heat2d_spec("4x4", 8);  // 2x2 interior: 4 tiles fit, 5 do not
  spec.params["spare"] = "4";
  EXPECT_TRUE(parse_params(spec));
  spec.params["spare"] = "3";
  EXPECT_EQ(heat2d_error(spec),
            "tasks = 8 less spare = '3' (5 tiles) does not fit size = '4x4': every tile needs at "
            "least one interior cell in each direction (2x2 interior cells)");
}

TEST(Heat2dParams, ReadsGivenValues) {
  auto p = parse_params(heat2d_spec("31x17", 6, 12));
  ASSERT_TRUE(p) << p.error();
  EXPECT_EQ(*p, (Params{31, 17, 12, 6}));
  EXPECT_TRUE(parse_params(heat2d_spec("3x3", 1)));
  EXPECT_TRUE(parse_params(heat2d_spec("65536x3", 1)));
}

TEST(Heat2dParams, MalformedSizeNamesKeyAndValue) {
  EXPECT_EQ(heat2d_error(heat2d_spec("12y4")), "size = '12y4': expected WxH, e.g. 512x512");
  for (const char* bad : {"", "x", "12x", "x12", "12x4x4", "-5x5", "+5x5", " 5x5", "5x 5", "5X5",
                          "5x5 ", "0x10", "99999999999x5"}) {
    const std::string e = heat2d_error(heat2d_spec(bad));
    EXPECT_NE(e.find(std::string("size = '") + bad + "'"), std::string::npos) << bad << ": " << e;
  }
}

TEST(Heat2dParams, SizeOutOfRange) {
  for (const char* bad : {"2x10", "10x2", "65537x10", "10x65537"}) {
    const std::string e = heat2d_error(heat2d_spec(bad, 1));
    EXPECT_NE(e.find(std::string("size = '") + bad + "'"), std::string::npos) << e;
    EXPECT_NE(e.find("between 3 and 65536"), std::string::npos) << e;
  }
}

TEST(Heat2dParams, UnknownKeyIsNamed) {
  JobSpec spec = heat2d_spec("8x8");
  spec.params["sise"] = "4x4";
  EXPECT_EQ(heat2d_error(spec), "unknown parameter 'sise' = '4x4' (heat2d knows: size, spare)");
}

TEST(Heat2dParams, TasksMustFitTheGrid) {
  // 4x4 has a 2x2 interior: 4 tiles fit (2x2), 5 (prime) and 9 do not.
  EXPECT_TRUE(parse_params(heat2d_spec("4x4", 4)));
  EXPECT_EQ(heat2d_error(heat2d_spec("4x4", 5)),
            "tasks = 5 does not fit size = '4x4': every tile needs at least one interior cell in "
            "each direction (2x2 interior cells)");
  EXPECT_NE(heat2d_error(heat2d_spec("4x4", 9)).find("tasks = 9"), std::string::npos);
  EXPECT_NE(heat2d_error(heat2d_spec("3x3", 2)).find("tasks = 2"), std::string::npos);
  EXPECT_TRUE(parse_params(heat2d_spec("3x100", 98)));  // 1 x 98 strips of one cell
  EXPECT_FALSE(parse_params(heat2d_spec("3x100", 99)));
}

TEST(Heat2dParams, FillRejectsWithoutTouchingSpec) {
  JobSpec spec = heat2d_spec("12y4");
  EXPECT_FALSE(fill_and_validate(spec));
  EXPECT_EQ(spec.tasks, 0u);
}

TEST(Heat2dParams, OptionHelpListsEveryOption) {
  const auto help = option_help();
  ASSERT_EQ(help.size(), 4u);
  EXPECT_EQ(help[0].rfind("--size WxH", 0), 0u);
  EXPECT_EQ(help[1].rfind("--steps S", 0), 0u);
  EXPECT_EQ(help[2].rfind("--tasks N", 0), 0u);
  EXPECT_EQ(help[3],
            "--spare N    of the tasks, N start without a tile and take half of one the balancer "
            "splits (default 0)");
}

}  // namespace
}  // namespace drift::heat2d
