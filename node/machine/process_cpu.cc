// CPU time of a whole process from /proc/PID/stat (process_cpu.h).
#include "node/machine/process_cpu.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <string>

#include "node/machine/proc_file.h"

namespace drift {

std::optional<double> parse_process_cpu(std::string_view stat, long ticks_per_second) {
  const std::size_t paren = stat.rfind(')');
  if (paren == std::string_view::npos || ticks_per_second <= 0) return std::nullopt;
  std::string_view rest = stat.substr(paren + 1);
  // Fields 3 (state) to 13 (cmajflt) come before utime (14) and stime (15).
  unsigned long long values[2] = {0, 0};
  for (int field = 3; field <= 15; ++field) {
    const std::size_t start = rest.find_first_not_of(' ');
    if (start == std::string_view::npos) return std::nullopt;
    rest.remove_prefix(start);
    const std::size_t end = std::min(rest.find(' '), rest.size());
    if (field >= 14) {
      const auto [stop, ec] = std::from_chars(rest.data(), rest.data() + end, values[field - 14]);
      if (ec != std::errc{} || stop != rest.data() + end) return std::nullopt;
    }
    rest.remove_prefix(end);
  }
  return static_cast<double>(values[0] + values[1]) / static_cast<double>(ticks_per_second);
}

std::optional<double> process_cpu_seconds(int pid) {
  const auto text = read_text("/proc/" + std::to_string(pid) + "/stat", 4096);
  if (!text) return std::nullopt;
  static const long ticks = ::sysconf(_SC_CLK_TCK);
  return parse_process_cpu(*text, ticks);
}

double node_cpu_seconds(const std::vector<int>& workers) {
  double sum = process_cpu_seconds(::getpid()).value_or(0);
  for (int pid : workers) sum += process_cpu_seconds(pid).value_or(0);
  return sum;
}

}  // namespace drift
