// `local up --run K:COMMAND`: daemon K is started as COMMAND instead of driftd, e.g. a driftd
// built for another architecture run through qemu-user ("2:qemu-s390x -L /usr/s390x-linux-gnu
// build-s390x/bin/driftd"); its config and settings arguments follow COMMAND's words.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <drift/status.h>

namespace drift::ctl {

// The words of a command line split at blanks (no quoting: paths with blanks are not supported).
std::vector<std::string> split_command(const std::string& command);

struct NodeCommand {
  int node = 0;                   // 1..N
  std::vector<std::string> argv;  // program, then its first arguments
};

// Parses "K:COMMAND"; the error quotes the text and says what is wrong with it.
Result<NodeCommand> parse_node_command(const std::string& text);

// The commands by node; a node number above `nodes` or a node given twice is an error.
Result<std::map<int, std::vector<std::string>>> node_commands(const std::vector<std::string>& texts,
                                                              int nodes);

}  // namespace drift::ctl
