// Reading and checking app options (app_params.h).
#include "apps/common/app_params.h"

#include "protocol/byte_size.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>

namespace drift::apps {

namespace {

std::string range_text(Range range, bool bytes) {
  auto text = [bytes](std::uint64_t v) { return bytes ? format_bytes(v) : std::to_string(v); };
  if (range.max == UINT64_MAX) return "at least " + text(range.min);
  return "from " + text(range.min) + " to " + text(range.max);
}

}  // namespace

Result<AppParams> AppParams::read(std::string app, const JobSpec& spec,
                                  std::vector<std::string> known) {
  for (const auto& [key, value] : spec.params) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    std::string list;
    for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
    return Status::error(app + ": unknown parameter '" + key + "' = '" + value + "' (" + app +
                         " knows: " + list + ")");
  }
  return AppParams(std::move(app), spec);
}

Status AppParams::out_of_range(const std::string& key, const std::string& text, bool bytes,
                               Range range) const {
  const std::string what = bytes ? "a byte count (e.g. 4096, 64K, 1M)" : "a whole number";
  return Status::error(app_ + ": " + key + " = '" + text + "': expected " + what + " " +
                       range_text(range, bytes));
}

Result<std::uint64_t> AppParams::number(const std::string& key, std::uint64_t fallback,
                                        Range range) const {
  auto it = spec_.params.find(key);
  if (it == spec_.params.end()) return fallback;
  auto v = parse_decimal(it->second);
  if (!v || *v < range.min || *v > range.max) {
    return out_of_range(key, it->second, false, range);
  }
  return *v;
}

Result<std::uint64_t> AppParams::bytes(const std::string& key, std::uint64_t fallback,
                                       Range range) const {
  auto it = spec_.params.find(key);
  if (it == spec_.params.end()) return fallback;
  auto v = parse_byte_size(it->second);
  if (!v || *v < range.min || *v > range.max) {
    return out_of_range(key, it->second, true, range);
  }
  return *v;
}

Result<std::uint64_t> spec_count(const std::string& app, const std::string& key,
                                 std::uint64_t value, std::uint64_t fallback, Range range) {
  const std::uint64_t v = value == 0 ? fallback : value;
  if (v < range.min || v > range.max) {
    return Status::error(app + ": " + key + " = " + std::to_string(v) + ": expected " +
                         range_text(range, false));
  }
  return v;
}

std::string format_bytes(std::uint64_t bytes) {
  static constexpr const char* kSuffix[] = {"", "K", "M", "G"};
  int i = 0;
  while (i < 3 && bytes != 0 && bytes % 1024 == 0) {
    bytes /= 1024;
    ++i;
  }
  return std::to_string(bytes) + kSuffix[i];
}

}  // namespace drift::apps
