// Rendering of `driftctl tasks` (tasks_view.h).
#include "ctl/tasks_view.h"

#include <algorithm>
#include <cstdio>

#include "ctl/task_id_text.h"
#include "ctl/text_table.h"

namespace drift::ctl {

namespace {

std::vector<TaskInfo> sorted_tasks(const TasksReply& reply) {
  auto tasks = reply.tasks;
  std::sort(tasks.begin(), tasks.end(),
            [](const TaskInfo& a, const TaskInfo& b) { return a.task < b.task; });
  return tasks;
}

std::string one_decimal(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::vector<std::string> table_row(const TaskInfo& t) {
  return {format_job_id(t.task.job),
          std::to_string(t.task.index),
          t.node == 0 ? "?" : std::to_string(t.node),
          std::to_string(t.epoch),
          one_decimal(t.load),
          std::to_string(t.forwarded)};
}

nlohmann::json json_of(const TaskInfo& t) {
  return {{"job", format_job_id(t.task.job)},
          {"index", t.task.index},
          {"node", t.node == 0 ? nlohmann::json(nullptr) : nlohmann::json(t.node)},
          {"epoch", t.epoch},
          {"load", t.load},
          {"forwarded", t.forwarded}};
}

}  // namespace

std::string tasks_table(const TasksReply& reply) {
  if (reply.tasks.empty()) return "no running tasks\n";
  TextTable table({"JOB", "INDEX", "NODE", "EPOCH", "LOAD", "FORWARDED"});
  for (std::size_t c : {1, 2, 3, 4, 5}) table.align_right(c);
  for (const auto& task : sorted_tasks(reply)) table.add_row(table_row(task));
  return table.render();
}

nlohmann::json tasks_json(const TasksReply& reply) {
  auto tasks = nlohmann::json::array();
  for (const auto& task : sorted_tasks(reply)) tasks.push_back(json_of(task));
  return {{"tasks", tasks}};
}

}  // namespace drift::ctl
