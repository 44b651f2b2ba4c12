#include "tests/protocol/golden_vectors.h"

#include <stdexcept>

namespace drift::test {
namespace {

struct GoldenHex {
  const char* name;
  const char* hex;
};

constexpr GoldenHex kGoldenHex[] = {
#include "tests/protocol/golden_vectors.inc"
};

int nibble(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  throw std::invalid_argument(std::string("bad hex digit '") + c + "'");
}

}  // namespace

std::string to_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : bytes) {
    out += kDigits[b >> 4];
    out += kDigits[b & 0xf];
  }
  return out;
}

std::vector<std::uint8_t> from_hex(std::string_view hex) {
  if (hex.size() % 2 != 0) throw std::invalid_argument("odd-length hex string");
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    out.push_back(static_cast<std::uint8_t>(nibble(hex[i]) << 4 | nibble(hex[i + 1])));
  }
  return out;
}

const std::vector<GoldenFrame>& golden_frames() {
  static const std::vector<GoldenFrame> frames = [] {
    std::vector<GoldenFrame> out;
    for (const GoldenHex& g : kGoldenHex) out.push_back({g.name, from_hex(g.hex)});
    return out;
  }();
  return frames;
}

const GoldenFrame& golden_frame(std::string_view name) {
  for (const GoldenFrame& g : golden_frames()) {
    if (g.name == name) return g;
  }
  throw std::out_of_range("no golden frame named " + std::string(name));
}

}  // namespace drift::test
