// Logging for the daemon: spdlog, one logger, to stderr or a file, level from config.
#pragma once

#include <spdlog/spdlog.h>

#include <string>

#include <drift/status.h>

namespace drift {

// Sets the default spdlog logger; `file` empty logs to stderr. The pattern names the node so the
// logs of a local cluster can be read side by side.
Status setup_logging(const std::string& level, const std::string& file, const std::string& node);

}  // namespace drift
