// Runs driftctl_main() in this process on a command line and captures what it prints, for tests
// of argument handling that stop before any daemon is contacted.
#pragma once

#include <string>

namespace drift::ctl::test {

struct CliOutcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// `command_line` is split at spaces (no quoting): "migrate 0x1a:2 3 --timeout 5".
CliOutcome run_driftctl(const std::string& command_line);

}  // namespace drift::ctl::test
