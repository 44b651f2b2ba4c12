// Shared plumbing of driftctl's commands: parsing a command's arguments with Boost.Program_options
// into a usage error instead of an exception, and printing errors as "driftctl: ..." with the
// exit code that goes with them (exit_codes.h).
#pragma once

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/positional_options.hpp>
#include <boost/program_options/variables_map.hpp>
#include <string>
#include <vector>

#include <drift/status.h>

namespace drift::ctl {

Status parse_args(const std::vector<std::string>& args,
                  const boost::program_options::options_description& options,
                  const boost::program_options::positional_options_description& positional,
                  boost::program_options::variables_map& vm);

// 0.5 -> "0.5", 20 -> "20": numbers as the user typed them, for error messages.
std::string plain_number(double value);

// "driftctl run: <message> (see 'driftctl run --help')" on stderr; returns kExitUsage.
int usage_error(const std::string& command, const std::string& message);
// "driftctl: <message>" on stderr; returns `exit_code`, or kExitRefused for a daemon's refusal.
int report_failure(int exit_code, const std::string& message);
// With --json on the command line: usage errors and failures are also one JSON object on
// stdout, {"error": MESSAGE, "exit": CODE}, so that a script reading stdout learns why.
void failures_as_json(bool on);

}  // namespace drift::ctl
