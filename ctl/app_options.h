// An application's own options, as `driftctl run APP` takes them. Each line of
// Application::option_help() ("--size WxH  grid size (default 256x256)") becomes one option
// --size taking a value that goes into JobSpec::params["size"]; a line without a value name
// ("--verbose  say more") becomes a flag stored as "true". Names driftctl uses itself
// (steps, tasks, ...) are left to driftctl.
#pragma once

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>
#include <map>
#include <string>
#include <vector>

#include <drift/application.h>

namespace drift::ctl {

struct AppOption {
  std::string key;         // "size"
  std::string value_name;  // "WxH"; empty for a flag
  std::string help;        // "grid size (default 256x256)"
};

// One help line; false when the line does not start with "--name".
bool parse_option_help(const std::string& line, AppOption& out);

std::vector<AppOption> app_options(const Application& app,
                                   const std::vector<std::string>& reserved);

boost::program_options::options_description describe_app_options(
    const std::string& app_name, const std::vector<AppOption>& options);

// The given app options from a parsed command line, as JobSpec params.
std::map<std::string, std::string> app_params(const std::vector<AppOption>& options,
                                              const boost::program_options::variables_map& vm);

}  // namespace drift::ctl
