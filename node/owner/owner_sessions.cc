// Parsing for the owner detector (owner_sessions.h).
#include "node/owner/owner_sessions.h"

#include <utmp.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <sstream>

namespace drift {

bool safe_tty_line(std::string_view line) {
  if (line.empty() || line.front() == '/' || line.find("..") != std::string_view::npos) {
    return false;
  }
  return std::all_of(line.begin(), line.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '/' || c == '-' || c == '_' || c == '.';
  });
}

std::vector<std::string> utmp_session_lines(std::span<const std::uint8_t> bytes) {
  std::vector<std::string> lines;
  for (std::size_t at = 0; at + sizeof(utmp) <= bytes.size(); at += sizeof(utmp)) {
    utmp record;
    std::memcpy(&record, bytes.data() + at, sizeof record);  // the bytes need not be aligned
    if (record.ut_type != USER_PROCESS) continue;
    // ut_line is NUL-padded, not necessarily NUL-terminated.
    const std::string line(record.ut_line, strnlen(record.ut_line, sizeof record.ut_line));
    if (safe_tty_line(line)) lines.push_back(line);
  }
  return lines;
}

std::optional<std::string> logind_session_line(std::string_view text) {
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("TTY=")) continue;
    std::string tty = line.substr(4);
    if (tty.starts_with("/dev/")) tty.erase(0, 5);
    if (safe_tty_line(tty)) return tty;
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<double> idle_since(double now, std::span<const double> times) {
  if (times.empty()) return std::nullopt;
  return std::max(0.0, now - *std::max_element(times.begin(), times.end()));
}

double owner_idle(std::span<const std::optional<double>> inputs) {
  double idle = std::numeric_limits<double>::infinity();
  for (const auto& in : inputs) {
    if (in) idle = std::min(idle, *in);
  }
  return idle;
}

}  // namespace drift
