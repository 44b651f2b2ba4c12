#include "ctl/app_options.h"

#include <boost/program_options/value_semantic.hpp>

namespace po = boost::program_options;

namespace drift::ctl {

po::options_description describe_app_options(const std::string& app_name,
                                             const std::vector<AppOption>& options) {
  po::options_description d(app_name + " options");
  for (const auto& o : options) {
    if (o.value_name.empty()) {
      d.add_options()(o.key.c_str(), o.help.c_str());
    } else {
      d.add_options()(o.key.c_str(), po::value<std::string>()->value_name(o.value_name),
                      o.help.c_str());
    }
  }
  return d;
}

std::map<std::string, std::string> app_params(const std::vector<AppOption>& options,
                                              const po::variables_map& vm) {
  std::map<std::string, std::string> params;
  for (const auto& o : options) {
    if (!vm.count(o.key)) continue;
    params[o.key] = o.value_name.empty() ? "true" : vm[o.key].as<std::string>();
  }
  return params;
}

}  // namespace drift::ctl
