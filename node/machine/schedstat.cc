// The kernel's scheduler statistics, parsed (schedstat.h).
#include "node/machine/schedstat.h"

#include <charconv>
#include <string>
#include <utility>

#include "node/machine/proc_file.h"

namespace drift {

namespace {

// The unsigned number at the start of `text` (after blanks); advances past it.
std::optional<unsigned long long> take_number(std::string_view& text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  unsigned long long value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end == text.data()) return std::nullopt;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  return value;
}

}  // namespace

std::optional<ThreadTime> parse_schedstat(std::string_view text) {
  auto ran = take_number(text);
  auto waited = take_number(text);
  if (!ran || !waited) return std::nullopt;
  return ThreadTime{std::chrono::nanoseconds(*ran), std::chrono::nanoseconds(*waited)};
}

std::optional<std::chrono::nanoseconds> parse_throttled(std::string_view cpu_stat) {
  while (!cpu_stat.empty()) {
    const auto eol = cpu_stat.find('\n');
    std::string_view line = cpu_stat.substr(0, eol);
    cpu_stat.remove_prefix(eol == std::string_view::npos ? cpu_stat.size() : eol + 1);
    for (const auto& [key, unit] : {std::pair<std::string_view, long long>{"throttled_time ", 1},
                                    {"throttled_usec ", 1000}}) {
      if (!line.starts_with(key)) continue;
      line.remove_prefix(key.size());
      if (auto n = take_number(line)) {
        return std::chrono::nanoseconds(static_cast<long long>(*n) * unit);
      }
    }
  }
  return std::nullopt;
}

std::optional<ThreadTime> read_thread_time() {
  auto text = read_text("/proc/thread-self/schedstat");
  if (!text) return std::nullopt;
  return parse_schedstat(*text);
}

}  // namespace drift
