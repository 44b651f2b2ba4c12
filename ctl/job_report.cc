// The end of `driftctl run` as text and JSON (job_report.h).
#include "ctl/job_report.h"

#include <algorithm>
#include <cstdio>

#include "ctl/task_id_text.h"
#include "ctl/text_table.h"

namespace drift::ctl {

JobReport report_of(const JobResult& result) {
  return JobReport{result.app,    result.checksum, result.steps,   result.tasks,
                   result.wall_s, "cluster",       result.job,     result.details,
                   result.step_s, result.migrations, result.recoveries,
                   result.steps_recomputed, result.splits, result.merges};
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
  if (report.mode == "cluster") {
    table.add_row({"migrations", std::to_string(report.migrations)});
    if (report.splits > 0 || report.merges > 0) {
      table.add_row({"splits/merges",
                     std::to_string(report.splits) + " / " + std::to_string(report.merges)});
    }
    if (report.recoveries > 0) {
      table.add_row({"recoveries", std::to_string(report.recoveries) + " (" +
                                       std::to_string(report.steps_recomputed) +
                                       " step(s) done again)"});
    }
    if (!report.step_s.empty()) {
      std::vector<double> sorted = report.step_s;
      std::sort(sorted.begin(), sorted.end());
      char steps[96];
      std::snprintf(steps, sizeof steps, "median %.3f s, first %.3f s, last %.3f s",
                    sorted[sorted.size() / 2], report.step_s.front(), report.step_s.back());
      table.add_row({"step time", steps});
    }
  }
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
  if (report.mode == "cluster") {
    j["job"] = format_job_id(report.job);
    j["step_s"] = report.step_s;
    j["migrations"] = report.migrations;
    j["recoveries"] = report.recoveries;
    j["steps_recomputed"] = report.steps_recomputed;
    j["splits"] = report.splits;
    j["merges"] = report.merges;
  }
  return j;
}

}  // namespace drift::ctl
