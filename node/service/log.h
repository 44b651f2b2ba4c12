// Logging for the daemon: spdlog, one logger, level from config. To `log.file` when one is set,
// reopened by reopen_log() (driftd calls it on SIGHUP, so logrotate can move the file away); else
// to stderr, with a timestamp of its own unless stderr goes to the systemd journal (JOURNAL_STREAM
// names it), which stamps every line itself. The last kRecentLines lines at info and above are
// also kept in memory, for the dashboard's events (/api/events).
#pragma once

#include <spdlog/spdlog.h>

#include <string>
#include <vector>

#include <drift/status.h>

namespace drift {

// Sets the default spdlog logger; `file` empty logs to stderr. The pattern names the node so the
// logs of a local cluster can be read side by side.
Status setup_logging(const std::string& level, const std::string& file, const std::string& node);

// The log file is opened again (by name) before the next line is written; nothing if logging to
// stderr. Safe from any thread.
void reopen_log();

// The last lines logged at info or above, oldest first (at most `limit`, and kRecentLines).
inline constexpr std::size_t kRecentLines = 500;
struct LogLine {
  double unix_s = 0;
  std::string level;  // "info", "warning", "error", ...
  std::string text;
};
std::vector<LogLine> recent_log_lines(std::size_t limit);

// Whether stderr is the systemd journal's stream (`JOURNAL_STREAM` = its device:inode).
bool stderr_is_journal();

}  // namespace drift
