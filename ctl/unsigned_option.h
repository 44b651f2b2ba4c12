// Unsigned command-line values read strictly. Boost.Program_options reads an unsigned option
// through lexical_cast, which takes "-1" and wraps it: `run --steps -1` became a job of
// 18446744073709551615 steps that never ended, `--tasks -1` 4294967295 tasks. An option made with
// unsigned_value(&field) accepts only digits, in range; anything else is the library's "the
// argument ('-1') for option '--steps' is invalid". The value goes through a type of its own
// (StrictUnsigned, whose validate() argument-dependent lookup finds), so no other translation
// unit's po::value<std::uint32_t> can change how it is read, nor it theirs.
#pragma once

#include <boost/any.hpp>
#include <boost/program_options/errors.hpp>
#include <boost/program_options/value_semantic.hpp>

#include <charconv>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace drift::ctl {

template <class T>
struct StrictUnsigned {
  static_assert(std::is_unsigned_v<T>);
  T value{};
};

// Found by Boost.Program_options (argument-dependent lookup on StrictUnsigned<T>*).
template <class T>
void validate(boost::any& v, const std::vector<std::string>& values, StrictUnsigned<T>*, int) {
  namespace po = boost::program_options;
  po::validators::check_first_occurrence(v);
  const std::string& text = po::validators::get_single_string(values);
  T out{};
  const char* end = text.data() + text.size();
  const auto [at, ec] = std::from_chars(text.data(), end, out);
  const bool sign = !text.empty() && (text.front() == '-' || text.front() == '+');
  if (text.empty() || sign || ec != std::errc() || at != end) {
    throw po::invalid_option_value(text);
  }
  v = StrictUnsigned<T>{out};
}

// An option whose value lands in *field once the command line is parsed (po::notify).
template <class T>
boost::program_options::typed_value<StrictUnsigned<T>>* unsigned_value(T* field) {
  return boost::program_options::value<StrictUnsigned<T>>()->notifier(
      [field](const StrictUnsigned<T>& v) { *field = v.value; });
}

}  // namespace drift::ctl
