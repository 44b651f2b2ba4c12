#include "node/machine/machine_stats.h"

#include <chrono>
#include <fstream>
#include <string>

namespace drift {

double read_load_average() {
  std::ifstream in("/proc/loadavg");
  double one = 0;
  if (!(in >> one)) return 0;
  return one;
}

std::uint64_t read_available_memory() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

// A Jacobi-like sweep over a small array: the kind of work drift's applications do.
double measure_capacity(int millis) {
  constexpr int kCells = 4096;
  static double grid[2][kCells];
  for (int i = 0; i < kCells; ++i) grid[0][i] = grid[1][i] = i % 7;
  auto begin = std::chrono::steady_clock::now();
  auto deadline = begin + std::chrono::milliseconds(millis);
  double cells = 0;
  int cur = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    for (int i = 1; i + 1 < kCells; ++i) {
      grid[1 - cur][i] = 0.5 * grid[cur][i] + 0.25 * (grid[cur][i - 1] + grid[cur][i + 1]);
    }
    cur = 1 - cur;
    cells += kCells - 2;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  return seconds > 0 ? cells / seconds / 1e6 : 1.0;  // millions of cells per second
}

}  // namespace drift
