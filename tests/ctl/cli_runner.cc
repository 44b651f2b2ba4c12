// run_driftctl() (cli_runner.h), with GoogleTest's stdout/stderr capture.
#include "tests/ctl/cli_runner.h"

#include <gtest/gtest.h>

#include <iostream>
#include <sstream>
#include <vector>

#include "ctl/driftctl.h"

namespace drift::ctl::test {

CliOutcome run_driftctl(const std::string& command_line) {
  std::vector<std::string> words{"driftctl"};
  std::istringstream in(command_line);
  for (std::string w; in >> w;) words.push_back(w);
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  CliOutcome outcome;
  outcome.exit_code = driftctl_main(static_cast<int>(words.size()), argv.data());
  std::cout.flush();
  std::cerr.flush();
  outcome.out = testing::internal::GetCapturedStdout();
  outcome.err = testing::internal::GetCapturedStderr();
  return outcome;
}

}  // namespace drift::ctl::test
