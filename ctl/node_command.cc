#include "ctl/node_command.h"

#include <charconv>
#include <sstream>

namespace drift::ctl {

std::vector<std::string> split_command(const std::string& command) {
  std::istringstream in(command);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

Result<NodeCommand> parse_node_command(const std::string& text) {
  const auto bad = [&](const std::string& why) {
    return Status::error("--run '" + text + "': " + why + " (expected K:COMMAND)");
  };
  const auto colon = text.find(':');
  if (colon == std::string::npos || colon == 0) return bad("no node number");
  NodeCommand c;
  const char* first = text.data();
  const auto [end, ec] = std::from_chars(first, first + colon, c.node);
  if (ec != std::errc() || end != first + colon || c.node < 1) return bad("bad node number");
  c.argv = split_command(text.substr(colon + 1));
  if (c.argv.empty()) return bad("empty command");
  return c;
}

Result<std::map<int, std::vector<std::string>>> node_commands(const std::vector<std::string>& texts,
                                                              int nodes) {
  std::map<int, std::vector<std::string>> out;
  for (const std::string& t : texts) {
    auto c = parse_node_command(t);
    if (!c) return c.status();
    if (c->node > nodes) {
      return Status::error("--run '" + t + "': node " + std::to_string(c->node) +
                           " is not one of the " + std::to_string(nodes) + " daemons");
    }
    if (!out.emplace(c->node, std::move(c->argv)).second) {
      return Status::error("--run '" + t + "': node " + std::to_string(c->node) +
                           " already has a command");
    }
  }
  return out;
}

}  // namespace drift::ctl
