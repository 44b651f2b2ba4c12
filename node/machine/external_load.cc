#include "node/machine/external_load.h"

#include <algorithm>
#include <filesystem>
#include <string>

#include "node/machine/proc_file.h"

namespace drift {

double external_load_per_core(double load_average, std::uint32_t own_runnable,
                              std::uint32_t cores) {
  const double others = std::max(0.0, load_average - static_cast<double>(own_runnable));
  return others / static_cast<double>(std::max<std::uint32_t>(cores, 1));
}

double quota_external_load(double per_core, std::uint32_t cores, double quota) {
  const double n = static_cast<double>(std::max<std::uint32_t>(cores, 1));
  if (!(quota > 0) || quota >= n) return per_core;  // no quota that binds: as without one
  const double free = std::max(n - per_core * n, 0.05 * quota);
  return free >= quota ? 0 : quota / free - 1;
}

char stat_state(std::string_view stat_line) {
  const std::size_t paren = stat_line.rfind(')');
  if (paren == std::string_view::npos) return '\0';
  const std::size_t state = stat_line.find_first_not_of(' ', paren + 1);
  return state == std::string_view::npos || state == paren + 1 ? '\0' : stat_line[state];
}

namespace {

std::uint32_t runnable_threads(const std::string& tasks) {
  std::error_code ec;
  std::uint32_t runnable = 0;
  // Threads come and go while we look: a vanished one is simply not counted, never an error.
  for (std::filesystem::directory_iterator it(tasks, ec), end; !ec && it != end;
       it.increment(ec)) {
    const auto line = read_text(it->path() / "stat", 4096);
    if (line && stat_state(*line) == 'R') ++runnable;
  }
  return runnable;
}

}  // namespace

std::uint32_t count_own_runnable_threads(const std::vector<int>& children) {
  std::uint32_t runnable = runnable_threads("/proc/self/task");
  for (int pid : children) runnable += runnable_threads("/proc/" + std::to_string(pid) + "/task");
  return runnable;
}

}  // namespace drift
