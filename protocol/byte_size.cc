#include "protocol/byte_size.h"

#include <charconv>

namespace drift {

std::optional<std::uint64_t> parse_decimal(std::string_view s) {
  if (s.empty() || s.front() < '0' || s.front() > '9') return std::nullopt;
  std::uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

namespace {

int suffix_shift(char c) {
  switch (c) {
    case 'K': return 10;
    case 'M': return 20;
    case 'G': return 30;
    case 'T': return 40;
    default: return -1;
  }
}

}  // namespace

std::optional<std::uint64_t> parse_byte_size(std::string_view s) {
  const int shift = s.empty() ? -1 : suffix_shift(s.back());
  if (shift < 0) return parse_decimal(s);
  auto v = parse_decimal(s.substr(0, s.size() - 1));
  if (!v || *v > (UINT64_MAX >> shift)) return std::nullopt;
  return *v << shift;
}

}  // namespace drift
