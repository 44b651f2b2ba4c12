// Feeds 100,000+ random and mutated frames to the decoder (deterministic seed). Nothing may crash,
// every refusal must say why, whatever decodes must re-encode to bytes that decode the same, and no
// single allocation during a decode may exceed 16 x body size + 64 KiB (docs/architecture.md §4), measured by
// AllocationTracker (not under AddressSanitizer, where only the other checks run).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <map>
#include <random>
#include <string>

#include "protocol/codec.h"
#include "tests/protocol/allocation_tracker.h"
#include "tests/protocol/golden_vectors.h"

namespace drift::test {
namespace {

using Bytes = std::vector<std::uint8_t>;

constexpr int kIterations = 120000;
constexpr std::uint32_t kFuzzMaxBody = 1 << 20;

struct Mutator {
  std::mt19937_64 rng{0x5eed'd71f'7000'0001ULL};

  std::size_t below(std::size_t n) { return n == 0 ? 0 : rng() % n; }
  std::uint8_t byte() { return static_cast<std::uint8_t>(rng()); }

  Bytes random_bytes(std::size_t max_len) {
    Bytes b(below(max_len + 1));
    for (auto& x : b) x = byte();
    return b;
  }

  std::uint64_t huge_length(std::size_t remaining) {
    static constexpr std::uint64_t kValues[] = {
        ~0ULL, 1ULL << 63, (1ULL << 32) + 2, 1ULL << 32, 1ULL << 40, 0xffffffffULL, 1ULL << 24};
    switch (below(3)) {
      case 0:
        return kValues[below(std::size(kValues))];
      case 1:
        return remaining + below(64);
      default:
        return rng();
    }
  }

  void mutate(Bytes& b) {
    const int edits = 1 + static_cast<int>(below(4));
    for (int e = 0; e < edits; ++e) {
      switch (below(6)) {
        case 0:  // bit flip
          if (!b.empty()) b[below(b.size())] ^= static_cast<std::uint8_t>(1u << below(8));
          break;
        case 1:  // byte replacement, often with a boundary value
          if (!b.empty()) b[below(b.size())] = below(2) ? byte() : std::uint8_t{0xff};
          break;
        case 2:  // truncation
          b.resize(below(b.size() + 1));
          break;
        case 3: {  // insertion
          const Bytes extra = random_bytes(16);
          b.insert(b.begin() + static_cast<std::ptrdiff_t>(below(b.size() + 1)), extra.begin(),
                   extra.end());
          break;
        }
        case 4:  // a length field overwritten with a huge value
        case 5:
          if (b.size() >= 8) {
            const std::size_t at = below(b.size() - 7);
            const std::uint64_t v = huge_length(b.size() - at - 8);
            for (int i = 0; i < 8; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
          }
          break;
      }
    }
  }
};

struct Outcome {
  int decoded = 0;
  int refused = 0;
  std::size_t largest_allocation = 0;
  std::map<std::string, int> reasons;  // by the words that say why
};

std::string reason_kind(const std::string& error) {
  for (const char* kind : {"unknown message type", "truncated", "maximum", "exceeds the",
                           "enum value", "bool value", "trailing bytes", "endianness flag",
                           "frame magic", "protocol version", "header says", "shorter than its"}) {
    if (error.find(kind) != std::string::npos) return kind;
  }
  return "other: " + error;
}

// Decodes one frame, checking the allocation bound and, if it decodes, the round trip.
void check_frame(const Bytes& frame, Outcome& outcome) {
  AllocationTracker::start();
  Result<WireMessage> msg = decode_frame(frame, kFuzzMaxBody);
  AllocationTracker::stop();
  const std::size_t body = frame.size() > kFrameHeaderSize ? frame.size() - kFrameHeaderSize : 0;
  ASSERT_LE(AllocationTracker::largest(), 16 * body + 64 * 1024) << to_hex(frame);
  outcome.largest_allocation = std::max(outcome.largest_allocation, AllocationTracker::largest());
  if (!msg) {
    ++outcome.refused;
    ++outcome.reasons[reason_kind(msg.error())];
    return;
  }
  ++outcome.decoded;
  // Compared as bytes, not with ==: a mutated double may be a NaN.
  const Bytes reencoded = encode(*msg);
  Result<WireMessage> again = decode_frame(reencoded, kFuzzMaxBody);
  ASSERT_TRUE(again) << again.error() << " for " << to_hex(frame);
  ASSERT_EQ(encode(*again), reencoded) << to_hex(frame);
}

Bytes frame_for(std::uint16_t type, const Bytes& body) {
  FrameHeader h;
  h.type = type;
  h.length = static_cast<std::uint32_t>(body.size());
  const auto header = encode_header(h);
  Bytes frame(header.begin(), header.end());
  frame.insert(frame.end(), body.begin(), body.end());
  return frame;
}

// The bound below is only as good as the tracker: it must see a decode's payload allocation.
TEST(Fuzz, AllocationTrackerSeesDecodeAllocations) {
  if (!AllocationTracker::available()) GTEST_SKIP() << "operator new belongs to the sanitizer";
  const Bytes frame = encode(TaskMessage{{}, {}, 1, 1, 0, Bytes(100000, 0xab)});
  AllocationTracker::start();
  Result<WireMessage> msg = decode_frame(frame, kFuzzMaxBody);
  AllocationTracker::stop();
  ASSERT_TRUE(msg) << msg.error();
  EXPECT_GE(AllocationTracker::largest(), 100000u);
}

TEST(Fuzz, RandomAndMutatedFramesNeverCrashOrOverAllocate) {
  const std::vector<GoldenFrame>& golden = golden_frames();
  Mutator m;
  Outcome outcome;
  for (int i = 0; i < kIterations; ++i) {
    const GoldenFrame& g = golden[m.below(golden.size())];
    const std::uint16_t golden_type = static_cast<std::uint16_t>(g.bytes[6] | g.bytes[7] << 8);
    Bytes frame;
    switch (m.below(8)) {
      case 0: {  // random body, a known type, the right endianness flag
        Bytes body = m.random_bytes(256);
        if (!body.empty()) body[0] = 1;
        frame = frame_for(golden_type, body);
        break;
      }
      case 1:  // random body, any type
        frame = frame_for(static_cast<std::uint16_t>(m.rng()), m.random_bytes(64));
        break;
      case 2: {  // mutated golden body behind a correct header
        Bytes body(g.bytes.begin() + kFrameHeaderSize, g.bytes.end());
        m.mutate(body);
        frame = frame_for(golden_type, body);
        break;
      }
      case 3:  // mutated whole golden frame, header included
        frame = g.bytes;
        m.mutate(frame);
        break;
      default: {  // mutated golden body, most likely to get deep into a message
        Bytes body(g.bytes.begin() + kFrameHeaderSize, g.bytes.end());
        m.mutate(body);
        if (!body.empty()) body[0] = 1;
        frame = frame_for(golden_type, body);
        break;
      }
    }
    ASSERT_NO_FATAL_FAILURE(check_frame(frame, outcome)) << "iteration " << i;
  }

  for (const auto& [reason, count] : outcome.reasons) {
    EXPECT_EQ(reason.rfind("other: ", 0), std::string::npos) << reason;
    std::cout << "  refused (" << reason << "): " << count << "\n";
  }
  std::cout << "  decoded: " << outcome.decoded << ", refused: " << outcome.refused
            << ", largest single allocation: " << outcome.largest_allocation << " bytes\n";
  EXPECT_EQ(outcome.decoded + outcome.refused, kIterations);
  EXPECT_GT(outcome.decoded, 1000);  // mutations that keep a frame valid are exercised too
  for (const char* kind :
       {"unknown message type", "truncated", "exceeds the", "enum value", "bool value",
        "trailing bytes", "endianness flag", "frame magic", "maximum", "header says"}) {
    EXPECT_GT(outcome.reasons[kind], 0) << "the fuzzer never reached: " << kind;
  }
}

// Every 8-byte window of every golden body overwritten with each huge length: wherever a length
// field is, it is refused before anything is allocated for it.
TEST(Fuzz, HugeLengthsAtEveryOffset) {
  Outcome outcome;
  for (const GoldenFrame& g : golden_frames()) {
    const std::uint16_t type = static_cast<std::uint16_t>(g.bytes[6] | g.bytes[7] << 8);
    const Bytes body(g.bytes.begin() + kFrameHeaderSize, g.bytes.end());
    for (std::size_t at = 1; at + 8 <= body.size(); ++at) {
      const std::uint64_t huge[] = {~0ULL, 1ULL << 63, (1ULL << 32) + 2, 1ULL << 40,
                                    body.size() - at};
      for (std::uint64_t v : huge) {
        Bytes b = body;
        for (int i = 0; i < 8; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
        ASSERT_NO_FATAL_FAILURE(check_frame(frame_for(type, b), outcome)) << g.name << " @" << at;
      }
    }
  }
  EXPECT_GT(outcome.reasons["exceeds the"], 100);
}

}  // namespace
}  // namespace drift::test
