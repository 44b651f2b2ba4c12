// driftd: the drift daemon. `driftd --config FILE [--key=value ...]`; `driftd --help` lists keys.
#include <iostream>

#include "node/application.h"
#include "node/config.h"
#include "node/daemon.h"
#include "node/log.h"

int main(int argc, char** argv) {
  auto parsed = drift::parse_driftd_args(argc, argv);
  if (auto* help = std::get_if<drift::ConfigHelp>(&parsed)) {
    std::cout << help->text;
    return 0;
  }
  if (auto* error = std::get_if<drift::ConfigError>(&parsed)) {
    std::cerr << error->message << "\n";
    return 2;
  }
  auto& config = std::get<drift::NodeConfig>(parsed);
  if (auto st = drift::setup_logging(config.log_level, config.log_file, config.name); !st) {
    std::cerr << "driftd: " << st.message() << " (" << config.where("log.file") << ")\n";
    return 2;
  }
  try {
    drift::Daemon daemon(std::move(config), drift::builtin_apps());
    if (auto st = daemon.start(); !st) {
      std::cerr << "driftd: " << st.message() << "\n";
      spdlog::error("{}", st.message());
      return 2;
    }
    daemon.run();
    spdlog::info("stopped");
  } catch (const std::exception& e) {
    std::cerr << "driftd: fatal: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
