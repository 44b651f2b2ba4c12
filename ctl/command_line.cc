#include "ctl/command_line.h"

#include <boost/program_options/errors.hpp>
#include <boost/program_options/parsers.hpp>
#include <iostream>
#include <sstream>

#include "ctl/exit_codes.h"

namespace po = boost::program_options;

namespace drift::ctl {

Status parse_args(const std::vector<std::string>& args, const po::options_description& options,
                  const po::positional_options_description& positional, po::variables_map& vm) {
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    return Status::error(e.what());
  }
  return Status::ok();
}

std::string plain_number(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

int usage_error(const std::string& command, const std::string& message) {
  std::cerr << "driftctl " << command << ": " << message << " (see 'driftctl " << command
            << " --help')\n";
  return kExitUsage;
}

int report_failure(int exit_code, const std::string& message) {
  std::cerr << "driftctl: " << message << "\n";
  return message.find(kRefusedPrefix) != std::string::npos ? kExitRefused : exit_code;
}

}  // namespace drift::ctl
