// A job as JSON (job_json.h).
#include "observe/job_json.h"

#include <cstdio>

namespace drift {

std::string job_id_text(std::uint64_t job) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(job));
  return text;
}

nlohmann::json job_entry_json(const JobEntry& e) {
  return {{"job", job_id_text(e.job)}, {"name", e.name},         {"owner", e.owner},
          {"app", e.app},              {"state", to_string(e.state)}, {"step", e.step},
          {"steps", e.steps},          {"tasks", e.tasks},       {"elapsed_s", e.elapsed_s},
          {"nodes", e.nodes},          {"root", e.root},         {"reason", e.reason}};
}

}  // namespace drift
