#include "node/log.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>

namespace drift {

Status setup_logging(const std::string& level, const std::string& file, const std::string& node) {
  auto lvl = spdlog::level::from_str(level);
  if (lvl == spdlog::level::off && level != "off") {
    return Status::error("log.level = '" + level + "': expected trace|debug|info|warn|error");
  }
  std::shared_ptr<spdlog::logger> logger;
  try {
    if (file.empty()) {
      logger = std::make_shared<spdlog::logger>(
          node, std::make_shared<spdlog::sinks::stderr_sink_mt>());
    } else {
      logger = std::make_shared<spdlog::logger>(
          node, std::make_shared<spdlog::sinks::basic_file_sink_mt>(file));
    }
  } catch (const spdlog::spdlog_ex& e) {
    return Status::error("log.file = '" + file + "': " + e.what());
  }
  logger->set_pattern("%Y-%m-%d %H:%M:%S.%e %n %^%l%$ %v");
  logger->set_level(lvl);
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(logger);
  return Status::ok();
}

}  // namespace drift
