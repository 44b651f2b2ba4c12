#include "tests/integration/driftctl_process.h"

#include <sys/wait.h>

#include <cstdio>

#include "tests/integration/cluster_test_fixture.h"

namespace drift::test {

DriftctlOutput driftctl(const std::string& args) { return driftctl_as("", args); }

DriftctlOutput driftctl_as(const std::string& user, const std::string& args,
                           const std::string& executable) {
  const std::string as = user.empty() ? "" : "runuser -u " + user + " -- ";
  const std::string exe = executable.empty() ? (bin_dir() / "driftctl").string() : executable;
  const std::string command = as + exe + " " + args + " 2>&1";
  DriftctlOutput result;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) {
    result.out.append(buffer, n);
  }
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace drift::test
