// The end of `driftctl run` as text and JSON (job_report.h).
#include "node/ctl/job_report.h"

#include <cstdio>

#include "node/ctl/task_id_text.h"
#include "node/ctl/text_table.h"

namespace drift::ctl {

JobReport report_of(const JobResult& result) {
  return JobReport{result.app,    result.checksum, result.steps, result.tasks,
                   result.wall_s, "cluster",       result.job,   result.details};
}

std::string job_report_text(const JobReport& report) {
  char wall[64];
  std::snprintf(wall, sizeof wall, "%.3f s", report.wall_s);
  TextTable table({"app", report.app + (report.mode == "serial" ? " (serial reference)" : "")});
  if (report.mode == "cluster") table.add_row({"job", format_job_id(report.job)});
  table.add_row({"checksum", report.checksum});
  table.add_row({"steps", std::to_string(report.steps)});
  table.add_row({"tasks", std::to_string(report.tasks)});
  table.add_row({"wall time", wall});
  for (const auto& [key, value] : report.details) table.add_row({key, value});
  return table.render();
}

nlohmann::json job_report_json(const JobReport& report) {
  nlohmann::json details = nlohmann::json::object();
  for (const auto& [key, value] : report.details) details[key] = value;
  nlohmann::json j = {{"app", report.app},       {"checksum", report.checksum},
                      {"steps", report.steps},   {"tasks", report.tasks},
                      {"wall_s", report.wall_s}, {"mode", report.mode},
                      {"details", details}};
  if (report.mode == "cluster") j["job"] = format_job_id(report.job);
  return j;
}

}  // namespace drift::ctl
