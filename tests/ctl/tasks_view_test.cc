// tasks_view: `driftctl tasks` as a table and as JSON, sorted by job and index.
#include "ctl/tasks_view.h"

#include <gtest/gtest.h>

namespace drift::ctl {
namespace {

TasksReply tasks_sample() {
  TasksReply r;
  r.tasks = {TaskInfo{{0x200010002, 1}, 3, 2, 512.5, 17}, TaskInfo{{0x100010001, 7}, 1, 0, 1024, 0},
             TaskInfo{{0x200010002, 0}, 0, 1, 0, 4}, TaskInfo{{0x100010001, 10}, 2, 1, 1024, 3}};
  return r;
}

TEST(TasksViewTest, TableIsSortedByJobThenIndex) {
  EXPECT_EQ(tasks_table(tasks_sample()),
            "JOB          INDEX  NODE  EPOCH    LOAD  FORWARDED\n"
            "0x100010001      7     1      0  1024.0          0\n"
            "0x100010001     10     2      1  1024.0          3\n"
            "0x200010002      0     ?      1     0.0          4\n"
            "0x200010002      1     3      2   512.5         17\n");
}

TEST(TasksViewTest, NoTasksSaysSo) { EXPECT_EQ(tasks_table({}), "no running tasks\n"); }

TEST(TasksViewTest, JsonHasTheContractedFields) {
  const auto j = tasks_json(tasks_sample());
  ASSERT_EQ(j["tasks"].size(), 4u);
  const auto& first = j["tasks"][0];
  EXPECT_EQ(first["job"], "0x100010001");
  EXPECT_EQ(first["index"], 7);
  EXPECT_EQ(first["node"], 1);
  EXPECT_EQ(first["epoch"], 0);
  EXPECT_DOUBLE_EQ(first["load"].get<double>(), 1024);
  EXPECT_EQ(first["forwarded"], 0);
  EXPECT_TRUE(j["tasks"][2]["node"].is_null());
  EXPECT_EQ(j["tasks"][3]["forwarded"], 17);
  EXPECT_EQ(tasks_json({}).dump(), R"({"tasks":[]})");
}

}  // namespace
}  // namespace drift::ctl
