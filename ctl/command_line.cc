#include "ctl/command_line.h"

#include <boost/program_options/errors.hpp>
#include <boost/program_options/parsers.hpp>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ctl/exit_codes.h"

namespace po = boost::program_options;

namespace drift::ctl {

namespace {

// Boost says only "too many positional options": name the word, and the switch before it that
// takes no value ("--json yes").
std::string stray_word(const std::vector<std::string>& args, const po::options_description& options,
                       const po::positional_options_description& positional) {
  unsigned positionals = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.starts_with("-") && arg.find_first_not_of('-') != std::string::npos) {
      if (arg.find('=') != std::string::npos) continue;
      const auto* option = options.find_nothrow(arg.substr(arg.find_first_not_of('-')), false);
      if (option && option->semantic()->max_tokens() > 0) ++i;  // its value
      continue;
    }
    if (positionals++ < positional.max_total_count()) continue;
    std::string said = "unexpected argument '" + arg + "'";
    if (i > 0 && args[i - 1].starts_with("--") && args[i - 1].find('=') == std::string::npos) {
      const auto* before = options.find_nothrow(args[i - 1].substr(2), false);
      if (before && before->semantic()->max_tokens() == 0) {
        said += " (" + args[i - 1] + " takes no value: give it alone)";
      }
    }
    return said;
  }
  return "too many arguments";
}

}  // namespace

Status parse_args(const std::vector<std::string>& args, const po::options_description& options,
                  const po::positional_options_description& positional, po::variables_map& vm) {
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::too_many_positional_options_error&) {
    return Status::error(stray_word(args, options, positional));
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

namespace {

bool json_failures = false;

int say_failure(int exit_code, const std::string& message) {
  if (json_failures) {
    std::cout << nlohmann::json{{"error", message}, {"exit", exit_code}}.dump() << "\n";
  }
  return exit_code;
}

}  // namespace

void failures_as_json(bool on) { json_failures = on; }

int usage_error(const std::string& command, const std::string& message) {
  std::cerr << "driftctl " << command << ": " << message << " (see 'driftctl " << command
            << " --help')\n";
  return say_failure(kExitUsage, "driftctl " + command + ": " + message);
}

int report_failure(int exit_code, const std::string& message) {
  std::cerr << "driftctl: " << message << "\n";
  return say_failure(message.find(kRefusedPrefix) != std::string::npos ? kExitRefused : exit_code,
                     message);
}

}  // namespace drift::ctl
