// Unsigned command-line values read strictly. Boost.Program_options reads an unsigned option
// through lexical_cast, which takes "-1" and wraps it: `run --steps -1` became a job of
// 18446744073709551615 steps that never ended, `--tasks -1` 4294967295 tasks. These overloads of
// its validate() (found through boost::any, so every po::value<std::uint32_t/uint64_t> of a file
// that includes this header uses them) accept only digits, in range; anything else is the
// library's "the argument ('-1') for option '--steps' is invalid".
#pragma once

#include <boost/any.hpp>
#include <boost/program_options/errors.hpp>
#include <boost/program_options/value_semantic.hpp>

#include <charconv>
#include <cstdint>
#include <string>
#include <vector>

namespace drift::ctl {

template <class T>
T strict_unsigned(const std::vector<std::string>& values) {
  namespace po = boost::program_options;
  const std::string& text = po::validators::get_single_string(values);
  T out{};
  const char* end = text.data() + text.size();
  const auto [at, ec] = std::from_chars(text.data(), end, out);
  const bool sign = !text.empty() && (text.front() == '-' || text.front() == '+');
  if (text.empty() || sign || ec != std::errc() || at != end) {
    throw po::invalid_option_value(text);
  }
  return out;
}

}  // namespace drift::ctl

namespace boost {

inline void validate(boost::any& v, const std::vector<std::string>& values, std::uint32_t*, int) {
  program_options::validators::check_first_occurrence(v);
  v = drift::ctl::strict_unsigned<std::uint32_t>(values);
}

inline void validate(boost::any& v, const std::vector<std::string>& values, std::uint64_t*, int) {
  program_options::validators::check_first_occurrence(v);
  v = drift::ctl::strict_unsigned<std::uint64_t>(values);
}

}  // namespace boost
