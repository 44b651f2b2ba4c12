// Hostile or broken input, one kind per test: each is refused with an error that says why
// (docs/architecture.md §4). Offsets come from the golden frames, so these tests follow the wire format.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "protocol/codec.h"
#include "tests/protocol/golden_vectors.h"
#include "tests/protocol/sample_messages.h"

namespace drift::test {
namespace {

using ::testing::AnyOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using Bytes = std::vector<std::uint8_t>;

constexpr std::uint32_t kMalformedMaxBody = 8388608;

struct Body {
  std::uint16_t type;
  Bytes bytes;
};

Body body_of(const Bytes& frame) {
  return {static_cast<std::uint16_t>(frame[6] | frame[7] << 8),
          Bytes(frame.begin() + kFrameHeaderSize, frame.end())};
}

Body golden_body(const std::string& name) { return body_of(golden_frame(name).bytes); }

std::string decode_error(const Body& b) {
  Result<WireMessage> r = decode_body(b.type, b.bytes);
  return r ? "<decoded>" : r.error();
}

void put_u64(Bytes& bytes, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) bytes.at(at + i) = static_cast<std::uint8_t>(v >> (8 * i));
}

// The one offset where the bodies of two messages differing in one 1-byte field differ.
std::size_t offset_of_difference(const WireMessage& a, const WireMessage& b) {
  const Bytes x = encode_body(a), y = encode_body(b);
  std::size_t at = 0;
  while (x.at(at) == y.at(at)) ++at;
  return at;
}

TEST(Malformed, OversizeFrameHeader) {
  FrameHeader h;
  h.type = static_cast<std::uint16_t>(MsgType::kTaskMessage);
  h.length = 99999999;
  const auto header = encode_header(h);
  EXPECT_EQ(decode_header(header, kMalformedMaxBody).error(),
            "frame body of 99999999 bytes exceeds the maximum of 8388608");
}

TEST(Malformed, BadMagic) {
  Bytes frame = golden_frame("start_job").bytes;
  frame[0] ^= 0x20;
  EXPECT_EQ(decode_frame(frame, kMalformedMaxBody).error(),
            "bad frame magic 0x54465264 (expected 0x54465244)");
}

TEST(Malformed, WrongVersion) {
  Bytes frame = golden_frame("start_job").bytes;
  frame[4] = 0;
  EXPECT_EQ(decode_frame(frame, kMalformedMaxBody).error(),
            "frame of protocol version 0 (ours is 1)");
}

TEST(Malformed, UnknownType) {
  Body b = golden_body("start_job");
  b.type = 999;
  EXPECT_EQ(decode_error(b), "unknown message type 999");
  b.type = 0;
  EXPECT_EQ(decode_error(b), "unknown message type 0");
}

TEST(Malformed, ByteVectorLengthBeyondRemaining) {
  Body b = body_of(encode(TaskMessage{{1, 2}, {1, 3}, 4, 5, 0, {}}));
  put_u64(b.bytes, b.bytes.size() - 8, 1ULL << 40);
  EXPECT_EQ(decode_error(b),
            "bad TaskMessage body: length 1099511627776 at offset 41 exceeds the 0 bytes left");
  // 2^32 + 2 with two bytes present: what a 32-bit build would have truncated and accepted.
  put_u64(b.bytes, b.bytes.size() - 8, (1ULL << 32) + 2);
  b.bytes.insert(b.bytes.end(), {0xaa, 0xbb});
  EXPECT_EQ(decode_error(b),
            "bad TaskMessage body: length 4294967298 at offset 41 exceeds the 2 bytes left");
}

TEST(Malformed, StringLengthBeyondRemaining) {
  Body b = golden_body("job_failed");  // flag, job u64, then the reason's length
  put_u64(b.bytes, 9, ~0ULL);
  EXPECT_EQ(decode_error(b),
            "bad JobFailed body: length 18446744073709551615 at offset 9 exceeds the 28 bytes "
            "left");
}

TEST(Malformed, DoubleVectorLengthBeyondRemaining) {
  Body b = golden_body("job_progress");  // flag, job, step, steps, then values' length
  put_u64(b.bytes, 25, 3);               // 2 values present
  EXPECT_EQ(decode_error(b),
            "bad JobProgress body: length 3 of 8-byte elements at offset 25 exceeds the 16 "
            "bytes left");
}

TEST(Malformed, StructVectorAndMapLengthsBeyondRemaining) {
  // gossip length follows flag, from, inc, seq, load (54 bytes), has_counters, counters (18 x 8)
  Body hb = golden_body("heartbeat");
  put_u64(hb.bytes, 1 + 4 + 8 + 8 + 54 + 1 + 144, 1ULL << 62);
  EXPECT_THAT(decode_error(hb), StartsWith("bad Heartbeat body: length 4611686018427387904 at "
                                           "offset 220 exceeds the"));
  Body jr = golden_body("job_result");
  // the details map, then step_s (length + 3 doubles), migrations, recoveries (4 bytes) and
  // steps_recomputed close the body
  const std::size_t details =
      jr.bytes.size() - (8 + 3 * 8) - 8 - 4 - 8 - 8 - 3 * 16 - (10 + 4) - (10 + 1) - (2 + 2);
  put_u64(jr.bytes, details, 1ULL << 33);
  EXPECT_THAT(decode_error(jr), StartsWith("bad JobResult body: length 8589934592 at offset " +
                                           std::to_string(details) + " exceeds the"));
}

// Every cut of every golden body is refused, as a truncation or as a length that cannot fit.
TEST(Malformed, TruncatedBodyAtEveryCutPoint) {
  int cuts = 0;
  for (const GoldenFrame& g : golden_frames()) {
    const Body full = body_of(g.bytes);
    const std::string prefix =
        "bad " + std::string(to_string(static_cast<MsgType>(full.type))) + " body: ";
    for (std::size_t cut = 0; cut < full.bytes.size(); ++cut) {
      const Body b{full.type, Bytes(full.bytes.begin(), full.bytes.begin() + cut)};
      const std::string error = decode_error(b);
      EXPECT_THAT(error, StartsWith(prefix)) << g.name << " cut at " << cut;
      EXPECT_THAT(error, AnyOf(HasSubstr("truncated at offset"), HasSubstr("bytes left"),
                               HasSubstr("byte left")))
          << g.name << " cut at " << cut;
      ++cuts;
    }
    Bytes frame = g.bytes;
    frame.pop_back();
    EXPECT_THAT(decode_frame(frame, kMalformedMaxBody).error(),
                HasSubstr("body bytes but its header says"));
  }
  EXPECT_GT(cuts, 1000);
}

TEST(Malformed, OutOfRangeEnums) {
  Hello client = std::get<Hello>(sample_message("hello_node"));
  Hello node = client;
  client.role = PeerRole::kClient;
  Body hello = golden_body("hello_node");
  hello.bytes.at(offset_of_difference(node, client)) = 2;
  EXPECT_EQ(decode_error(hello), "bad Hello body: enum value 2 out of range 0..1");

  Heartbeat a = std::get<Heartbeat>(sample_message("heartbeat")), b = a;
  b.load.owner = OwnerState::kReclaimed;
  Body hb = golden_body("heartbeat");
  hb.bytes.at(offset_of_difference(a, b)) = 4;
  EXPECT_EQ(decode_error(hb), "bad Heartbeat body: enum value 4 out of range 0..3");

  b = a;
  b.gossip[1].state = MemberState::kAlive;
  hb = golden_body("heartbeat");
  hb.bytes.at(offset_of_difference(a, b)) = 0xff;
  EXPECT_EQ(decode_error(hb), "bad Heartbeat body: enum value 255 out of range 0..2");
}

TEST(Malformed, BoolOtherThanZeroOrOne) {
  Body tc = golden_body("tasks_created_ok");
  tc.bytes.at(offset_of_difference(TasksCreated{9, 8, true, ""}, TasksCreated{9, 8, false, ""})) =
      2;
  EXPECT_EQ(decode_error(tc), "bad TasksCreated body: bool value 2 is neither 0 nor 1");
  Body je = golden_body("job_end");
  je.bytes.at(9) = 0x80;  // flag, job, then `failed`
  EXPECT_EQ(decode_error(je), "bad JobEnd body: bool value 128 is neither 0 nor 1");
  Body hb = golden_body("heartbeat");
  hb.bytes.at(1 + 4 + 8 + 8 + 53) = 3;  // flag, from, inc, seq, load, then has_counters
  EXPECT_EQ(decode_error(hb), "bad Heartbeat body: bool value 3 is neither 0 nor 1");
}

TEST(Malformed, TrailingBytes) {
  Body b = golden_body("start_job");
  b.bytes.push_back(0);
  EXPECT_EQ(decode_error(b),
            "bad StartJob body: trailing bytes: 1 byte after the value ended at offset 9");
  b = golden_body("hello_auth");
  b.bytes.insert(b.bytes.end(), 5, 0xee);
  EXPECT_EQ(decode_error(b),
            "bad HelloAuth body: trailing bytes: 5 bytes after the value ended at offset 33");
}

TEST(Malformed, BigEndianOrMissingFlag) {
  Body b = golden_body("start_job");
  b.bytes[0] = 0;
  EXPECT_EQ(decode_error(b), "bad StartJob body: endianness flag 0 is not 1 (little-endian)");
  b.bytes.clear();
  EXPECT_EQ(decode_error(b), "bad StartJob body: truncated at offset 0: 1 byte needed, 0 left");
}

}  // namespace
}  // namespace drift::test
