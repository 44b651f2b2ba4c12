// job_spec_bounds: what a job's description may hold, and the message when it holds more.
#include "node/jobs/job_spec_bounds.h"

#include <gtest/gtest.h>

namespace drift {
namespace {

JobSpec honest() {
  JobSpec s;
  s.app = "heat2d";
  s.tasks = 8;
  s.steps = 100;
  s.params = {{"size", "2048x2048"}, {"alpha", "0.1"}};
  s.runtime = {{"name", "my run"}, {"owner", "alice"}, {"binary.x86_64", std::string(64, 'a')}};
  return s;
}

void expect_refused(const JobSpec& s, const std::string& words) {
  const Status st = check_spec_bounds(s);
  ASSERT_FALSE(st.is_ok()) << words;
  EXPECT_NE(st.message().find(words), std::string::npos) << st.message();
}

TEST(JobSpecBoundsTest, AnHonestSpecAndOneAtEveryBoundPass) {
  EXPECT_TRUE(check_spec_bounds(honest()).is_ok());
  JobSpec s = honest();
  s.app = std::string(JobSpecBounds::kAppBytes, 'x');
  s.runtime["name"] = std::string(JobSpecBounds::kNameBytes, 'n');
  s.params.clear();
  s.params["v"] = std::string(JobSpecBounds::kParamBytes - 1, 'v');
  EXPECT_TRUE(check_spec_bounds(s).is_ok()) << check_spec_bounds(s).message();
}

TEST(JobSpecBoundsTest, ALongNameIsRefusedWithItsSize) {
  JobSpec s = honest();
  s.runtime["name"] = std::string(1 << 20, 'n');
  expect_refused(s, "the job's name is 1048576 bytes (at most 64)");
}

TEST(JobSpecBoundsTest, EveryOtherPartOverItsBoundIsNamed) {
  JobSpec app = honest();
  app.app = std::string(300, 'a');
  expect_refused(app, "the application's name is 300 bytes");

  JobSpec value = honest();
  value.runtime["placement"] = std::string(2000, 'p');
  expect_refused(value, "drift option placement's value is 2000 bytes (at most 1024)");

  JobSpec many = honest();
  for (int i = 0; i < 40; ++i) many.runtime["k" + std::to_string(i)] = "v";
  expect_refused(many, "entries (at most 32)");

  JobSpec key = honest();
  key.params[std::string(100, '\x01')] = "1";
  expect_refused(key, "application option '????");

  JobSpec params = honest();
  params.params.clear();
  params.params["a"] = std::string(40000, 'a');
  params.params["b"] = std::string(40000, 'b');
  expect_refused(params, "the application's options together is 80002 bytes (at most 65536)");
}

}  // namespace
}  // namespace drift
