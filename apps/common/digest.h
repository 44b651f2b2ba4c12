// Exact, platform-independent hashing for the apps' results and generated data: splitmix64's
// finalizer, a splitmix64 generator, an order-dependent digest over words and bytes, and the
// 16-hex-digit checksum format. Only uint64 arithmetic, so every node and the serial reference
// compute the same bits.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

namespace drift::apps {

// splitmix64's finalizer: a bijection on uint64 with full avalanche (mix64(0) == 0).
std::uint64_t mix64(std::uint64_t x);

// splitmix64: the same sequence on every platform and standard library.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  // Uniform enough for schedules: next() % n, n > 0.
  std::uint64_t below(std::uint64_t n) { return next() % n; }

 private:
  std::uint64_t state_;
};

// `count` bytes from SplitMix64(seed), each word's bytes least significant first.
std::vector<std::uint8_t> filler_bytes(std::uint64_t seed, std::size_t count);

// Order-dependent hash of a sequence of words and byte strings.
class Digest {
 public:
  Digest& add(std::uint64_t word);
  // Little-endian 8-byte words of `bytes` (the tail zero-padded), then the length.
  Digest& add_bytes(std::span<const std::uint8_t> bytes);
  std::uint64_t value() const { return h_; }

 private:
  std::uint64_t h_ = 0x6a09e667f3bcc908ULL;
};

// Digest of a few words, e.g. hash_words({sender, receiver, counter}).
std::uint64_t hash_words(std::initializer_list<std::uint64_t> words);

// 16 lowercase hex digits.
std::string format_hex16(std::uint64_t value);

}  // namespace drift::apps
