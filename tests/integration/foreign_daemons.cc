#include "tests/integration/foreign_daemons.h"

#include <algorithm>
#include <cstdlib>

#include "ctl/node_command.h"

namespace drift::test {

Result<std::vector<ForeignDaemon>> parse_foreign_daemons(std::string_view text) {
  std::vector<ForeignDaemon> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(';', start), text.size());
    const std::string entry(text.substr(start, end - start));
    start = end + 1;
    if (ctl::split_command(entry).empty()) continue;
    const auto eq = entry.find('=');
    ForeignDaemon d;
    if (eq != std::string::npos) {
      const auto arch = ctl::split_command(entry.substr(0, eq));
      if (arch.size() == 1) d.arch = arch.front();
      d.command = ctl::split_command(entry.substr(eq + 1));
    }
    if (d.arch.empty() || d.command.empty()) {
      return Status::error(std::string(kForeignDaemonsVariable) + ": '" + entry +
                           "' is not ARCH=COMMAND");
    }
    out.push_back(std::move(d));
  }
  return out;
}

Status add_foreign_workers(std::string_view text, std::vector<ForeignDaemon>& daemons) {
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(';', start), text.size());
    const std::string entry(text.substr(start, end - start));
    start = end + 1;
    if (entry.find_first_not_of(" \t") == std::string::npos) continue;
    const auto a = entry.find('|');
    const auto b = a == std::string::npos ? a : entry.find('|', a + 1);
    if (b == std::string::npos) {
      return Status::error(std::string(kForeignWorkersVariable) + ": '" + entry +
                           "' is not ARCH|APPS_DIR|LAUNCHER");
    }
    const std::string arch = entry.substr(0, a);
    for (ForeignDaemon& d : daemons) {
      if (d.arch != arch) continue;
      d.apps_dir = entry.substr(a + 1, b - a - 1);
      d.launcher = entry.substr(b + 1);
    }
  }
  return Status::ok();
}

Result<std::vector<ForeignDaemon>> foreign_daemons_from_environment() {
  const char* text = std::getenv(kForeignDaemonsVariable);
  if (text == nullptr || *text == '\0') {
    return Status::error(std::string(kForeignDaemonsVariable) +
                         " is not set: it names the foreign daemons (run scripts/cross-test.sh)");
  }
  auto daemons = parse_foreign_daemons(text);
  if (daemons && daemons->empty()) {
    return Status::error(std::string(kForeignDaemonsVariable) + " lists no daemon");
  }
  if (const char* workers = std::getenv(kForeignWorkersVariable); daemons && workers) {
    if (Status st = add_foreign_workers(workers, *daemons); !st) return st;
  }
  return daemons;
}

}  // namespace drift::test
