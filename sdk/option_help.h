// An application's own options, read from its help lines: each line of
// Application::option_help() ("--size WxH  grid size (default 256x256)") is one option --size
// taking a value that goes into JobSpec::params["size"]; a line without a value name
// ("--verbose  say more") is a flag stored as "true". The application's executable parses its
// command line with these, and driftctl builds its `run` options from the same lines.
#pragma once

#include <string>
#include <vector>

namespace drift {

struct AppOption {
  std::string key;         // "size"
  std::string value_name;  // "WxH"; empty for a flag
  std::string help;        // "grid size (default 256x256)"
};

// One help line; false when the line does not start with "--name".
bool parse_option_help(const std::string& line, AppOption& out);

// The options of `help_lines`, leaving out those named in `reserved` (the runner's own).
std::vector<AppOption> app_options(const std::vector<std::string>& help_lines,
                                   const std::vector<std::string>& reserved);

}  // namespace drift
