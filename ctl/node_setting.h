// `local up --set K:key=value`: one driftd config key for daemon K only (e.g. 3:emulate.speed=6).
// It reaches that daemon as a `--key=value` argument, which wins over the config file.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <drift/status.h>

namespace drift::ctl {

struct NodeSetting {
  int node = 0;       // 1..N
  std::string key;    // "emulate.speed"
  std::string value;  // "6"
  std::string argument() const { return "--" + key + "=" + value; }
};

// Parses "K:key=value"; the error quotes the text and says what is wrong with it.
Result<NodeSetting> parse_node_setting(const std::string& text);

// The settings as extra daemon arguments per node; a node number above `nodes` is an error.
Result<std::map<int, std::vector<std::string>>> node_arguments(const std::vector<std::string>& texts,
                                                               int nodes);

}  // namespace drift::ctl
