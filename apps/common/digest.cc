// Hashing for the apps (digest.h).
#include "apps/common/digest.h"

namespace drift::apps {

namespace {
constexpr std::uint64_t kGolden = 0x9e3779b97f4a7c15ULL;
}  // namespace

std::uint64_t mix64(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t SplitMix64::next() { return mix64(state_ += kGolden); }

std::vector<std::uint8_t> filler_bytes(std::uint64_t seed, std::size_t count) {
  SplitMix64 rng(seed);
  std::vector<std::uint8_t> out(count);
  std::uint64_t word = 0;
  for (std::size_t i = 0; i < count; ++i) {
    if (i % 8 == 0) word = rng.next();
    out[i] = static_cast<std::uint8_t>(word >> (8 * (i % 8)));
  }
  return out;
}

Digest& Digest::add(std::uint64_t word) {
  h_ = mix64(h_ ^ (word + kGolden)) + kGolden;
  return *this;
}

Digest& Digest::add_bytes(std::span<const std::uint8_t> bytes) {
  std::size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    std::uint64_t w = 0;
    for (int b = 7; b >= 0; --b) w = (w << 8) | bytes[i + static_cast<std::size_t>(b)];
    add(w);
  }
  std::uint64_t tail = 0;
  for (std::size_t b = bytes.size(); b > i; --b) tail = (tail << 8) | bytes[b - 1];
  add(tail);
  return add(static_cast<std::uint64_t>(bytes.size()));
}

std::uint64_t hash_words(std::initializer_list<std::uint64_t> words) {
  Digest d;
  for (std::uint64_t w : words) d.add(w);
  return d.value();
}

std::string format_hex16(std::uint64_t value) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i) {
    s[static_cast<std::size_t>(i)] = kHex[value & 0xf];
    value >>= 4;
  }
  return s;
}

}  // namespace drift::apps
