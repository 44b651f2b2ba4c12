// The jobs table (jobs_view.h).
#include "ctl/jobs_view.h"

#include <cstdio>

#include "ctl/task_id_text.h"
#include "ctl/text_table.h"

namespace drift::ctl {

namespace {

std::string seconds_text(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", s);
  return text;
}

std::string nodes_text(const std::vector<std::uint32_t>& nodes) {
  std::string out;
  for (std::uint32_t n : nodes) out += (out.empty() ? "" : ",") + std::to_string(n);
  return out;
}

}  // namespace

std::string jobs_table(const std::vector<JobEntry>& jobs) {
  TextTable table({"JOB", "NAME", "OWNER", "APP", "STATE", "STEP", "ELAPSED", "NODES", "ROOT"});
  for (const JobEntry& e : jobs) {
    table.add_row({format_job_id(e.job), e.name, e.owner, e.app, to_string(e.state),
                   std::to_string(e.step) + "/" + std::to_string(e.steps),
                   seconds_text(e.elapsed_s), nodes_text(e.nodes), std::to_string(e.root)});
  }
  std::string out = table.render();
  for (const JobEntry& e : jobs) {
    if (e.state == JobState::kQueued) out += format_job_id(e.job) + " " + e.reason + "\n";
  }
  return out;
}

}  // namespace drift::ctl
