// Logging for the daemon: spdlog, one logger, level from config. To `log.file` when one is set,
// reopened by reopen_log() (driftd calls it on SIGHUP, so logrotate can move the file away); else
// to stderr, with a timestamp of its own unless stderr goes to the systemd journal (JOURNAL_STREAM
// names it), which stamps every line itself.
#pragma once

#include <spdlog/spdlog.h>

#include <string>

#include <drift/status.h>

namespace drift {

// Sets the default spdlog logger; `file` empty logs to stderr. The pattern names the node so the
// logs of a local cluster can be read side by side.
Status setup_logging(const std::string& level, const std::string& file, const std::string& node);

// The log file is opened again (by name) before the next line is written; nothing if logging to
// stderr. Safe from any thread.
void reopen_log();

// Whether stderr is the systemd journal's stream (`JOURNAL_STREAM` = its device:inode).
bool stderr_is_journal();

}  // namespace drift
