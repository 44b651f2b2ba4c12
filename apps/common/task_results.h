// Decoding the tasks' final results in Application::combine: one Cereal-encoded R per task, in
// task order; the error names the app, the task and the byte count.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <drift/archives.h>
#include <drift/status.h>

namespace drift::apps {

template <class R>
Result<std::vector<R>> decode_results(const std::string& app, std::uint64_t tasks,
                                      const std::vector<std::vector<std::uint8_t>>& results) {
  if (results.size() != tasks) {
    return Status::error(app + ": " + std::to_string(results.size()) + " results for " +
                         std::to_string(tasks) + " tasks");
  }
  std::vector<R> decoded(results.size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (Status s = decode_portable(results[i], decoded[i]); !s) {
      return Status::error(app + ": result of task " + std::to_string(i) + " is malformed (" +
                           std::to_string(results[i].size()) + " bytes): " + s.message());
    }
  }
  return decoded;
}

}  // namespace drift::apps
