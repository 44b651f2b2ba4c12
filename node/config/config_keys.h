// The keys driftd reads: each key's name, argument and help text with its default, and the
// Boost option descriptions (command line and file) and --help text built from them. What the
// values mean and how they are checked is config.cc's.
#pragma once

#include <boost/program_options.hpp>
#include <chrono>
#include <string>

namespace drift {

// Keys that may repeat: their values add up within one source.
bool repeats(const std::string& key);
// Every key, as Boost options (one string each, or a list for the repeating ones).
boost::program_options::options_description key_options();
// --config, --help and every key.
boost::program_options::options_description command_line_options();
std::string help_text();
bool wants_help(int argc, const char* const argv[]);
// "usage: driftd --config FILE [--key=value ...]"
std::string usage();
// Values as the help and the error messages print them: "1500" (ms), "0.25".
std::string millis_text(std::chrono::milliseconds d);
std::string number_text(double v);

}  // namespace drift
