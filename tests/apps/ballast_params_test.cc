// ballast's options: defaults, size suffixes, ranges, unknown keys.
#include "apps/ballast/ballast_params.h"

#include <gtest/gtest.h>

namespace drift::ballast {
namespace {

std::string ballast_error(JobSpec spec) {
  auto p = parse_params(spec);
  return p ? "ok" : p.error();
}

TEST(BallastParams, DefaultsAreFilledIn) {
  JobSpec spec{"ballast", 0, 0, {}, {}};
  ASSERT_TRUE(fill_and_validate(spec));
  EXPECT_EQ(spec.tasks, 2u);
  EXPECT_EQ(spec.steps, 1000u);
  EXPECT_EQ(spec.params.at("state"), "1048576");
  EXPECT_EQ(spec.params.at("work"), "1000");
}

TEST(BallastParams, StateTakesSuffixesAndRoundsUpToWords) {
  for (auto [text, bytes] : {std::pair{"67108864", 64ull << 20},
                             {"64M", 64ull << 20},
                             {"16K", 16ull << 10},
                             {"1G", 1ull << 30},
                             {"8", 8ull}}) {
    auto p = parse_params(JobSpec{"ballast", 0, 0, {{"state", text}}, {}});
    ASSERT_TRUE(p) << p.error();
    EXPECT_EQ(p->state_bytes, bytes) << text;
  }
  EXPECT_EQ((Params{9, 0, 1, 1}).words(), 2u);
}

TEST(BallastParams, BadValuesNameKeyAndValue) {
  EXPECT_EQ(ballast_error({"ballast", 0, 0, {{"state", "2G"}}, {}}),
            "ballast: state = '2G': expected a byte count (e.g. 4096, 64K, 1M) from 8 to 1G");
  EXPECT_EQ(ballast_error({"ballast", 0, 0, {{"state", "64MB"}}, {}}),
            "ballast: state = '64MB': expected a byte count (e.g. 4096, 64K, 1M) from 8 to 1G");
  EXPECT_EQ(ballast_error({"ballast", 0, 0, {{"work", "x"}}, {}}),
            "ballast: work = 'x': expected a whole number from 0 to 60000000");
  EXPECT_EQ(ballast_error({"ballast", 2000, 0, {}, {}}),
            "ballast: tasks = 2000: expected from 1 to 1024");
  EXPECT_EQ(ballast_error({"ballast", 0, 0, {{"size", "1"}}, {}}),
            "ballast: unknown parameter 'size' = '1' (ballast knows: state, work)");
}

}  // namespace
}  // namespace drift::ballast
