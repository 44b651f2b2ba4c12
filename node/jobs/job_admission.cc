#include "node/jobs/job_admission.h"

#include <algorithm>
#include <cstdio>

namespace drift {

namespace {

std::string mib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0f MiB", bytes / (1 << 20));
  return text;
}

}  // namespace

std::string memory_shortfall(const MemoryNeed& need, const std::vector<std::uint64_t>& free_memory) {
  if (need.per_task == 0 || need.tasks == 0 || free_memory.empty()) return {};
  if (std::find(free_memory.begin(), free_memory.end(), 0) != free_memory.end()) return {};
  double offered = 0, largest = 0;
  for (std::uint64_t bytes : free_memory) {
    offered += static_cast<double>(bytes);
    largest = std::max(largest, static_cast<double>(bytes));
  }
  const double each = static_cast<double>(need.per_task);
  const double needed = each * need.tasks;
  if (needed <= offered && each <= largest) return {};
  return "its " + std::to_string(need.tasks) + " task(s) need " + mib(needed) + " (" + mib(each) +
         " each, " + need.source + "); the " + std::to_string(free_memory.size()) +
         " available node(s) have " + mib(offered) + " free" +
         (each > largest ? ", " + mib(largest) + " at most on one" : "");
}

}  // namespace drift
