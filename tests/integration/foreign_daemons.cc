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
  return daemons;
}

}  // namespace drift::test
