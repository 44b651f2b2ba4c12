#include "node/machine/machine_stats.h"

#include "node/machine/emulated_compute.h"
#include "node/machine/proc_file.h"

#include <charconv>
#include <chrono>
#include <string>
#include <string_view>

namespace drift {

double read_load_average() {
  const auto text = read_text("/proc/loadavg");
  double one = 0;
  if (!text || std::from_chars(text->data(), text->data() + text->size(), one).ec != std::errc{}) {
    return 0;
  }
  return one;
}

std::uint64_t read_available_memory() {
  const auto text = read_text("/proc/meminfo");
  if (!text) return 0;
  const std::string_view all = *text;
  constexpr std::string_view kKey = "MemAvailable:";
  const std::size_t at = all.find(kKey);
  if (at == std::string_view::npos) return 0;
  std::string_view rest = all.substr(at + kKey.size());
  rest.remove_prefix(std::min(rest.find_first_not_of(' '), rest.size()));
  std::uint64_t kib = 0;
  if (std::from_chars(rest.data(), rest.data() + rest.size(), kib).ec != std::errc{}) return 0;
  return kib * 1024;
}

// A Jacobi-like sweep over a small array: the kind of work drift's applications do.
double measure_capacity(int millis) {
  constexpr int kCells = 4096;
  static double grid[2][kCells];
  for (int i = 0; i < kCells; ++i) grid[0][i] = grid[1][i] = i % 7;
  // By the CPU time this thread got, not the wall time: under a cgroup's CPU quota (or beside
  // other programs) the wall time holds the throttled gaps too, and the caller multiplies the
  // core's speed by the share of it the node may use. It runs `millis` of wall time, and longer
  // (up to ten times) until it has had at least a tenth of that in CPU time.
  const auto begin = std::chrono::steady_clock::now();
  const auto deadline = begin + std::chrono::milliseconds(millis);
  const auto last = begin + std::chrono::milliseconds(10 * millis);
  const double cpu_begin = thread_cpu_seconds();
  const double want_cpu = millis / 1e4;
  double cells = 0;
  int cur = 0;
  for (;;) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= last || (now >= deadline && thread_cpu_seconds() - cpu_begin >= want_cpu)) break;
    for (int i = 1; i + 1 < kCells; ++i) {
      grid[1 - cur][i] = 0.5 * grid[cur][i] + 0.25 * (grid[cur][i - 1] + grid[cur][i + 1]);
    }
    cur = 1 - cur;
    cells += kCells - 2;
  }
  const double seconds = thread_cpu_seconds() - cpu_begin;
  return seconds > 0 && cells > 0 ? cells / seconds / 1e6 : 1.0;  // millions of cells per second
}

}  // namespace drift
