// Runs the driftctl executable (from DRIFT_BIN_DIR) as a user would, capturing its exit code and
// everything it prints: for the integration tests of driftctl's commands end to end.
#pragma once

#include <string>

namespace drift::test {

struct DriftctlOutput {
  int exit_code = -1;
  std::string out;  // stdout and stderr
};

// `args` go to the shell after the executable's path, unquoted.
DriftctlOutput driftctl(const std::string& args);
// The same as another user (runuser; the test must be root), optionally of another copy of
// driftctl (the build's may sit where that user cannot reach it).
DriftctlOutput driftctl_as(const std::string& user, const std::string& args,
                           const std::string& executable = "");

}  // namespace drift::test
