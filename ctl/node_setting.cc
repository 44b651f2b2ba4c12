// Per-daemon config keys for `local up --set` (node_setting.h).
#include "ctl/node_setting.h"

#include <cctype>

namespace drift::ctl {

Result<NodeSetting> parse_node_setting(const std::string& text) {
  const auto fail = [&](const std::string& why) {
    return Result<NodeSetting>(Status::error("--set '" + text + "': " + why));
  };
  const auto colon = text.find(':');
  if (colon == std::string::npos || colon == 0) {
    return fail("expected K:key=value, K the daemon's number (e.g. 3:emulate.speed=6)");
  }
  NodeSetting s;
  const std::string number = text.substr(0, colon);
  for (char c : number) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return fail("'" + number + "' is not a daemon number");
  }
  if (number.size() > 6 || std::stoi(number) < 1) return fail("daemon numbers start at 1");
  s.node = std::stoi(number);
  const std::string rest = text.substr(colon + 1);
  const auto eq = rest.find('=');
  if (eq == std::string::npos || eq == 0) return fail("expected key=value after the daemon number");
  s.key = rest.substr(0, eq);
  s.value = rest.substr(eq + 1);
  for (char c : s.key) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_') {
      return fail("'" + s.key + "' is not a config key (section.name)");
    }
  }
  return s;
}

Result<std::map<int, std::vector<std::string>>> node_arguments(const std::vector<std::string>& texts,
                                                               int nodes) {
  std::map<int, std::vector<std::string>> out;
  for (const auto& text : texts) {
    auto s = parse_node_setting(text);
    if (!s) return s.status();
    if (s->node > nodes) {
      return Status::error("--set '" + text + "': there are only " + std::to_string(nodes) +
                           " daemons");
    }
    out[s->node].push_back(s->argument());
  }
  return out;
}

}  // namespace drift::ctl
