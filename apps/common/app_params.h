// Reading an app's options from a JobSpec (drift/application.h): unknown keys refused, numbers
// strict (digits only, optional K/M/G suffix for byte sizes), every value range-checked, and
// every error naming the app, the key and the offending value, e.g.
//   "chatter: fanout = 'x': expected a whole number from 1 to 1024"
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <drift/status.h>
#include <drift/types.h>

namespace drift::apps {

struct Range {
  std::uint64_t min = 0;
  std::uint64_t max = UINT64_MAX;
};

class AppParams {
 public:
  // Refuses a spec with params outside `known`; the error lists the keys the app knows.
  static Result<AppParams> read(std::string app, const JobSpec& spec,
                                std::vector<std::string> known);

  // A plain decimal number; `fallback` when the key is absent.
  Result<std::uint64_t> number(const std::string& key, std::uint64_t fallback, Range range) const;
  // Bytes: decimal, optionally followed by K, M or G (powers of 1024).
  Result<std::uint64_t> bytes(const std::string& key, std::uint64_t fallback, Range range) const;

 private:
  AppParams(std::string app, const JobSpec& spec) : app_(std::move(app)), spec_(spec) {}
  Status out_of_range(const std::string& key, const std::string& text, bool bytes,
                      Range range) const;

  std::string app_;
  const JobSpec& spec_;
};

// spec.tasks or spec.steps (0 = `fallback`) checked against `range`; `key` is "tasks" or "steps".
Result<std::uint64_t> spec_count(const std::string& app, const std::string& key,
                                 std::uint64_t value, std::uint64_t fallback, Range range);

// "64M" for 67108864, "1536" for 1536: the shortest exact K/M/G form of a byte count.
std::string format_bytes(std::uint64_t bytes);

}  // namespace drift::apps
