// Job and task ids as text (task_id_text.h); parsing with std::from_chars, whole text or nothing.
#include "ctl/task_id_text.h"

#include <charconv>
#include <cstdio>

#include "observe/job_json.h"

namespace drift::ctl {

namespace {

// The unsigned number `text` spells in `base`, nothing more; false on anything else or overflow.
template <class T>
bool parse_unsigned(const std::string& text, int base, T& out) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out, base);
  return !text.empty() && ec == std::errc() && ptr == end;
}

bool has_hex_prefix(const std::string& text) {
  return text.size() >= 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
}

bool looks_hex(const std::string& text) {
  return text.find_first_of("abcdefABCDEF") != std::string::npos &&
         text.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos;
}

Status bad_job(const std::string& text) {
  std::string hint = "hex with 0x (e.g. 0x1a2b3c0001) or decimal, at most 64 bits";
  if (looks_hex(text)) hint = "did you mean 0x" + text + "? hex ids need the 0x prefix";
  return Status::error("job '" + text + "' is not a job id (" + hint + ")");
}

}  // namespace

std::string format_job_id(std::uint64_t job) { return job_id_text(job); }

std::string format_task_id(const TaskId& task) {
  return format_job_id(task.job) + ":" + std::to_string(task.index);
}

Result<std::uint64_t> parse_job_id(const std::string& text) {
  std::uint64_t job = 0;
  const bool ok = has_hex_prefix(text) ? parse_unsigned(text.substr(2), 16, job)
                                       : parse_unsigned(text, 10, job);
  if (!ok) return bad_job(text);
  return job;
}

Result<TaskId> parse_task_id(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos) {
    return Status::error("task '" + text + "' is not JOB:INDEX (e.g. 0x1a2b3c0001:5)");
  }
  auto job = parse_job_id(text.substr(0, colon));
  if (!job) return Status::error("task '" + text + "': " + job.error());
  TaskId task{*job, 0};
  if (!parse_unsigned(text.substr(colon + 1), 10, task.index)) {
    return Status::error("task '" + text + "': index '" + text.substr(colon + 1) +
                         "' is not a task index (a decimal number from 0)");
  }
  return task;
}

}  // namespace drift::ctl
