// Destinations of a vacating node's tasks (node/owner/evacuation_plan.h).
#include "node/owner/evacuation_plan.h"

#include <gtest/gtest.h>

#include <limits>
#include <map>

namespace drift {
namespace {

std::map<std::uint32_t, double> load_per_node(
    const std::vector<std::pair<TaskId, std::uint32_t>>& plan,
    const std::vector<LeavingTask>& tasks) {
  std::map<std::uint32_t, double> out;
  for (const auto& [task, node] : plan) {
    for (const auto& t : tasks) {
      if (t.task == task) out[node] += t.load;
    }
  }
  return out;
}

TEST(EvacuationPlanTest, LoadFollowsCapacity) {
  std::vector<LeavingTask> tasks;
  for (std::uint32_t i = 0; i < 8; ++i) tasks.push_back({TaskId{1, i}, 10});
  auto plan = plan_evacuation(tasks, {{2, 0, 100}, {3, 0, 300}});
  ASSERT_EQ(plan.size(), 8u);
  auto per_node = load_per_node(plan, tasks);
  EXPECT_EQ(per_node[2], 20);
  EXPECT_EQ(per_node[3], 60);
}

TEST(EvacuationPlanTest, CountsWhatTheTargetsAlreadyHold) {
  std::vector<LeavingTask> tasks = {{TaskId{1, 0}, 10}, {TaskId{1, 1}, 10}};
  auto plan = plan_evacuation(tasks, {{2, 50, 10}, {3, 0, 10}});
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_EQ(plan[0].second, 3u);
  EXPECT_EQ(plan[1].second, 3u);  // node 2 is busy (utilization 5): 3 takes both
}

TEST(EvacuationPlanTest, LargestTaskFirstAndTiesGoToTheLowerNode) {
  std::vector<LeavingTask> tasks = {{TaskId{1, 0}, 1}, {TaskId{1, 1}, 5}};
  auto plan = plan_evacuation(tasks, {{7, 0, 10}, {4, 0, 10}});
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_EQ(plan[0], (std::pair<TaskId, std::uint32_t>{TaskId{1, 1}, 4}));
  EXPECT_EQ(plan[1], (std::pair<TaskId, std::uint32_t>{TaskId{1, 0}, 7}));
}

TEST(EvacuationPlanTest, UnknownLoadsCountWithTheMean) {
  std::vector<LeavingTask> tasks = {{TaskId{1, 0}, 0}, {TaskId{1, 1}, 0}, {TaskId{1, 2}, 0}};
  auto plan = plan_evacuation(tasks, {{2, 0, 10}, {3, 0, 10}});
  ASSERT_EQ(plan.size(), 3u);
  std::map<std::uint32_t, int> count;
  for (const auto& [task, node] : plan) ++count[node];
  EXPECT_EQ(count[2], 2);  // spread, not all on one target
  EXPECT_EQ(count[3], 1);
}

TEST(EvacuationPlanTest, UnusableTargetsAreLeftOut) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<LeavingTask> tasks = {{TaskId{1, 0}, 3}};
  EXPECT_TRUE(plan_evacuation(tasks, {}).empty());
  EXPECT_TRUE(plan_evacuation(tasks, {{2, 0, 0}, {3, 0, nan}, {4, nan, 5}}).empty());
  auto plan = plan_evacuation(tasks, {{2, 0, -1}, {5, 0, 1}});
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].second, 5u);
}

}  // namespace
}  // namespace drift
