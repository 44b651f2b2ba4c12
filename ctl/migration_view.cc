// Rendering of `driftctl migrate`'s outcome (migration_view.h).
#include "ctl/migration_view.h"

#include <cstdio>

#include "ctl/human_bytes.h"
#include "ctl/task_id_text.h"

namespace drift::ctl {

std::string migration_summary(const MigrationReport& report) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.3f s", report.seconds);
  return "moved " + format_task_id(report.task) + " from node " + std::to_string(report.from) +
         " to node " + std::to_string(report.to) + ": " + human_bytes(report.state_bytes) + " in " +
         seconds;
}

std::string migration_failure(const TaskId& task, std::uint32_t dest, const std::string& reason) {
  return "cannot move " + format_task_id(task) + " to node " + std::to_string(dest) + ": " +
         (reason.empty() ? "the daemon gave no reason" : reason);
}

}  // namespace drift::ctl
