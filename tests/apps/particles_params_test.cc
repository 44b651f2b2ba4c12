// particles' options: defaults, given values, ranges, tasks <= cells, unknown keys; every error
// names the key and the value.
#include "apps/particles/particles_params.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace drift::particles {
namespace {

std::string particles_error(JobSpec spec) {
  auto p = parse_params(spec);
  return p ? "ok" : p.error();
}

TEST(ParticlesParams, DefaultsAreFilledIn) {
  JobSpec spec{"particles", 0, 0, {}, {}};
  ASSERT_TRUE(fill_and_validate(spec));
  EXPECT_EQ(spec.tasks, 4u);
  EXPECT_EQ(spec.steps, 100u);
  EXPECT_EQ(spec.params.at("cells"), "4096");
  EXPECT_EQ(spec.params.at("particles"), "100000");
  EXPECT_EQ(spec.params.at("seed"), "1");
  EXPECT_EQ(spec.params.at("drift"), "200");
  EXPECT_EQ(*parse_params(spec), (Params{4096, 100'000, 1, 200, 100, 4}));
}

TEST(ParticlesParams, ReadsGivenValues) {
  JobSpec spec{
      "particles",
      7,
      20,
      {{"cells", "64"}, {"particles", "500"}, {"seed", "18446744073709551615"}, {"drift", "0"}},
      {}};
  ASSERT_TRUE(fill_and_validate(spec));
  EXPECT_EQ(*parse_params(spec), (Params{64, 500, UINT64_MAX, 0, 20, 7}));
  EXPECT_EQ(parse_params(spec)->acceleration(), 0.0);
  EXPECT_EQ(Params{}.acceleration(), 200e-6);
}

TEST(ParticlesParams, BadValuesNameKeyAndValue) {
  EXPECT_EQ(particles_error({"particles", 0, 0, {{"cells", "0"}}, {}}),
            "particles: cells = '0': expected a whole number from 1 to 16777216");
  EXPECT_EQ(particles_error({"particles", 0, 0, {{"cells", "4k"}}, {}}),
            "particles: cells = '4k': expected a whole number from 1 to 16777216");
  EXPECT_EQ(particles_error({"particles", 0, 0, {{"particles", "-5"}}, {}}),
            "particles: particles = '-5': expected a whole number from 1 to 16777216");
  EXPECT_EQ(particles_error({"particles", 0, 0, {{"particles", "0"}}, {}}),
            "particles: particles = '0': expected a whole number from 1 to 16777216");
  EXPECT_EQ(particles_error({"particles", 0, 0, {{"drift", "100001"}}, {}}),
            "particles: drift = '100001': expected a whole number from 0 to 100000");
  EXPECT_NE(particles_error({"particles", 0, 0, {{"seed", "1.5"}}, {}}).find("seed = '1.5'"),
            std::string::npos);
  EXPECT_EQ(particles_error({"particles", 0, 0, {{"cell", "8"}}, {}}),
            "particles: unknown parameter 'cell' = '8' (particles knows: cells, particles, seed, "
            "drift)");
}

TEST(ParticlesParams, EveryTaskNeedsACell) {
  EXPECT_TRUE(parse_params({"particles", 8, 0, {{"cells", "8"}}, {}}));
  EXPECT_EQ(particles_error({"particles", 9, 0, {{"cells", "8"}}, {}}),
            "particles: tasks = 9 is more than cells = 8: every task needs at least one cell");
  EXPECT_NE(particles_error({"particles", 5, 0, {{"cells", "4"}}, {}}).find("tasks = 5"),
            std::string::npos);
}

TEST(ParticlesParams, FillRejectsWithoutTouchingSpec) {
  JobSpec spec{"particles", 0, 0, {{"cells", "x"}}, {}};
  EXPECT_FALSE(fill_and_validate(spec));
  EXPECT_EQ(spec.tasks, 0u);
  EXPECT_EQ(spec.params.size(), 1u);
}

TEST(ParticlesParams, HelpListsEveryOption) {
  const auto help = option_help();
  for (const char* key :
       {"--cells N", "--particles N", "--seed N", "--drift N", "--steps S", "--tasks N"}) {
    EXPECT_TRUE(std::any_of(help.begin(), help.end(), [&](const std::string& l) {
      return l.starts_with(key);
    })) << key;
  }
}

}  // namespace
}  // namespace drift::particles
