// An application's own options, as `driftctl run APP` takes them: its help lines
// (sdk/option_help.h, as the executable answers them) as Boost.Program_options options. Names
// driftctl uses itself (steps, tasks, ...) are left to driftctl.
#pragma once

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>
#include <map>
#include <string>
#include <vector>

#include "sdk/option_help.h"

namespace drift::ctl {

boost::program_options::options_description describe_app_options(
    const std::string& app_name, const std::vector<AppOption>& options);

// The given app options from a parsed command line, as JobSpec params.
std::map<std::string, std::string> app_params(const std::vector<AppOption>& options,
                                              const boost::program_options::variables_map& vm);

}  // namespace drift::ctl
