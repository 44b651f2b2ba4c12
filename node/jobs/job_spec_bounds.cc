#include "node/jobs/job_spec_bounds.h"

#include <string>

namespace drift {

namespace {

using B = JobSpecBounds;

std::string over(const std::string& what, std::size_t n, std::size_t most, const char* unit) {
  return what + " is " + std::to_string(n) + " " + unit + " (at most " + std::to_string(most) +
         ")";
}

// The key shown in a message: a long one cut, whatever bytes it holds made visible.
std::string shown(const std::string& key) {
  std::string s;
  for (char c : key.substr(0, 40)) s += (c >= 0x20 && c < 0x7f) ? c : '?';
  return key.size() > 40 ? s + "..." : s;
}

}  // namespace

Status check_spec_bounds(const JobSpec& spec) {
  if (spec.app.size() > B::kAppBytes) {
    return Status::error(over("the application's name", spec.app.size(), B::kAppBytes, "bytes"));
  }
  if (spec.runtime.size() > B::kRuntimeEntries) {
    return Status::error(over("the job's list of drift options", spec.runtime.size(),
                              B::kRuntimeEntries, "entries"));
  }
  for (const auto& [key, value] : spec.runtime) {
    if (key.size() > B::kKeyBytes) {
      return Status::error(over("drift option '" + shown(key) + "''s name", key.size(),
                                B::kKeyBytes, "bytes"));
    }
    const std::size_t most = key == "name" ? B::kNameBytes : B::kRuntimeValueBytes;
    if (value.size() > most) {
      return Status::error(over(key == "name" ? std::string("the job's name")
                                              : "drift option " + key + "'s value",
                                value.size(), most, "bytes"));
    }
  }
  if (spec.params.size() > B::kParamEntries) {
    return Status::error(over("the job's list of application options", spec.params.size(),
                              B::kParamEntries, "entries"));
  }
  std::size_t bytes = 0;
  for (const auto& [key, value] : spec.params) {
    if (key.size() > B::kKeyBytes) {
      return Status::error(over("application option '" + shown(key) + "''s name", key.size(),
                                B::kKeyBytes, "bytes"));
    }
    bytes += key.size() + value.size();
  }
  if (bytes > B::kParamBytes) {
    return Status::error(over("the application's options together", bytes, B::kParamBytes,
                              "bytes"));
  }
  return Status::ok();
}

}  // namespace drift
