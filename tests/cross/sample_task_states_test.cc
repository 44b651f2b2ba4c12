// The sample task states of the cross-architecture check restore on the build that made them,
// and check_restores notices states that are not the sample's.
#include "tests/cross/sample_task_states.h"

#include <gtest/gtest.h>

#include <set>

namespace drift::cross {
namespace {

TEST(SampleTaskStates, CoverHeat2dAndParticles) {
  std::set<std::string> apps;
  for (const SampleTaskState& s : sample_task_states()) apps.insert(s.spec.app);
  EXPECT_EQ(apps, (std::set<std::string>{"heat2d", "particles"}));
}

TEST(SampleTaskStates, EachRestoresFromItsOwnBytes) {
  for (const SampleTaskState& s : sample_task_states()) {
    Status restored = check_restores(s, s.bytes);
    EXPECT_TRUE(restored) << s.name << ": " << restored.message();
    EXPECT_FALSE(s.restart_trace.empty()) << s.name;
  }
}

TEST(SampleTaskStates, TruncatedOrLongerStateIsRefused) {
  const SampleTaskState& s = sample_task_states().front();
  std::vector<std::uint8_t> shorter(s.bytes.begin(), s.bytes.end() - 1);
  EXPECT_FALSE(check_restores(s, shorter));
  std::vector<std::uint8_t> longer = s.bytes;
  longer.push_back(0);
  EXPECT_FALSE(check_restores(s, longer));
}

TEST(SampleTaskStates, AnotherTasksStateIsNotThisOne) {
  const auto& all = sample_task_states();
  ASSERT_GE(all.size(), 2u);
  ASSERT_EQ(all[0].spec.app, all[1].spec.app);
  EXPECT_FALSE(check_restores(all[0], all[1].bytes));
}

}  // namespace
}  // namespace drift::cross
