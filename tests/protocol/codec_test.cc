// Whole messages: encode() = header + body, every message type round-trips, frame-level checks,
// and the names used in logs.
#include "protocol/codec.h"

#include <gtest/gtest.h>

#include <variant>

#include "tests/protocol/sample_messages.h"

namespace drift {
namespace {

constexpr std::uint32_t kCodecMaxBody = 8 << 20;

TEST(Codec, FrameIsHeaderThenBody) {
  for (const test::SampleMessage& s : test::sample_messages()) {
    const std::vector<std::uint8_t> frame = encode(s.message);
    const std::vector<std::uint8_t> body = encode_body(s.message);
    FrameHeader h;
    h.type = static_cast<std::uint16_t>(type_of(s.message));
    h.length = static_cast<std::uint32_t>(body.size());
    const auto header = encode_header(h);
    std::vector<std::uint8_t> expected(header.begin(), header.end());
    expected.insert(expected.end(), body.begin(), body.end());
    EXPECT_EQ(frame, expected) << s.name;
  }
}

TEST(Codec, EverySampleRoundTrips) {
  for (const test::SampleMessage& s : test::sample_messages()) {
    Result<WireMessage> back = decode_frame(encode(s.message), kCodecMaxBody);
    ASSERT_TRUE(back) << s.name << ": " << back.error();
    EXPECT_TRUE(*back == s.message) << s.name;
  }
}

// Default-constructed messages: empty strings and containers everywhere.
template <std::size_t... I>
void round_trip_defaults(std::index_sequence<I...>) {
  (
      [] {
        const WireMessage msg(std::in_place_index<I>);
        const auto body = encode_body(msg);
        Result<WireMessage> back = decode_body(static_cast<std::uint16_t>(type_of(msg)), body);
        ASSERT_TRUE(back) << to_string(type_of(msg)) << ": " << back.error();
        EXPECT_TRUE(*back == msg) << to_string(type_of(msg));
      }(),
      ...);
}

TEST(Codec, DefaultMessagesRoundTrip) {
  round_trip_defaults(std::make_index_sequence<std::variant_size_v<WireMessage>>());
}

TEST(Codec, TypeOfNamesTheAlternative) {
  EXPECT_EQ(type_of(Heartbeat{}), MsgType::kHeartbeat);
  EXPECT_EQ(type_of(JobFailed{}), MsgType::kJobFailed);
  EXPECT_EQ(type_of(Hello{}), MsgType::kHello);
}

TEST(Codec, RefusesAFrameShorterThanItsHeader) {
  const std::vector<std::uint8_t> frame{'D', 'R', 'F'};
  EXPECT_EQ(decode_frame(frame, kCodecMaxBody).error(),
            "frame of 3 bytes is shorter than its 12-byte header");
}

TEST(Codec, RefusesABodyLengthOtherThanTheHeaders) {
  std::vector<std::uint8_t> frame = encode(StartJob{5});
  frame.push_back(0);
  EXPECT_EQ(decode_frame(frame, kCodecMaxBody).error(),
            "frame carries 10 body bytes but its header says 9");
}

TEST(Codec, AppliesTheHeaderChecks) {
  const std::vector<std::uint8_t> frame =
      encode(TaskMessage{{}, {}, 1, 2, 0, std::vector<std::uint8_t>(100)});
  EXPECT_EQ(decode_frame(frame, 64).error(), "frame body of 149 bytes exceeds the maximum of 64");
}

TEST(Codec, NamesForLogs) {
  EXPECT_STREQ(to_string(MsgType::kReductionContribution), "ReductionContribution");
  EXPECT_STREQ(to_string(static_cast<MsgType>(999)), "unknown message type");
  EXPECT_STREQ(to_string(MemberState::kSuspect), "suspect");
  EXPECT_STREQ(to_string(OwnerState::kReclaimed), "reclaimed");
  EXPECT_STREQ(to_string(PeerRole::kClient), "client");
}

TEST(Codec, PrefixPlusPayloadIsTheWholeFrame) {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{4097}}) {
    std::vector<std::uint8_t> payload;
    for (std::size_t i = 0; i < n; ++i) payload.push_back(static_cast<std::uint8_t>(i * 31));
    MigrationChunk chunk{{9, 3}, 2, 7, {}};
    std::vector<std::uint8_t> joined = encode_prefix(chunk, n);
    joined.insert(joined.end(), payload.begin(), payload.end());
    chunk.bytes = payload;
    EXPECT_EQ(joined, encode(chunk)) << n << " chunk bytes";
    TaskMessage msg{{9, 3}, {9, 4}, 17, 5, 0, {}};
    joined = encode_prefix(msg, n);
    joined.insert(joined.end(), payload.begin(), payload.end());
    msg.payload = payload;
    EXPECT_EQ(joined, encode(msg)) << n << " payload bytes";
  }
}

TEST(Codec, ChunkViewReadsAChunkInPlace) {
  const MigrationChunk chunk{{9, 3}, 2, 7, {1, 2, 3, 250}};
  const std::vector<std::uint8_t> body = encode_body(chunk);
  auto view = decode_chunk_view(body);
  ASSERT_TRUE(view.is_ok()) << view.error();
  EXPECT_EQ(view->task, chunk.task);
  EXPECT_EQ(view->epoch, 2u);
  EXPECT_EQ(view->index, 7u);
  EXPECT_EQ(std::vector<std::uint8_t>(view->bytes.begin(), view->bytes.end()), chunk.bytes);
  EXPECT_EQ(view->bytes.data(), body.data() + body.size() - 4);  // no copy
  for (std::size_t cut = 0; cut < body.size(); ++cut) {
    EXPECT_FALSE(decode_chunk_view(std::span(body).first(cut)).is_ok()) << "cut at " << cut;
  }
  std::vector<std::uint8_t> longer = body;
  longer.push_back(0);
  auto trailing = decode_chunk_view(longer);
  ASSERT_FALSE(trailing.is_ok());
  EXPECT_NE(trailing.error().find("trailing bytes"), std::string::npos) << trailing.error();
}

TEST(Codec, TaskMessageHeadDecodesWhatDecodeBodyWould) {
  EXPECT_EQ(encode_body(TaskMessage{}).size(), kTaskMessageHead);
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{100}, std::size_t{70000}}) {
    TaskMessage msg{{7, 1}, {7, 2}, 99, 5, 6, std::vector<std::uint8_t>(n, 0x5a)};
    const std::vector<std::uint8_t> body = encode_body(msg);
    auto head = decode_task_message_head(std::span(body).first(kTaskMessageHead), body.size());
    ASSERT_TRUE(head.is_ok()) << head.error();
    EXPECT_TRUE(head->payload.empty());
    head->payload = msg.payload;
    EXPECT_EQ(*head, msg) << n;
    EXPECT_FALSE(
        decode_task_message_head(std::span(body).first(kTaskMessageHead), body.size() + 1).is_ok());
    EXPECT_FALSE(
        decode_task_message_head(std::span(body).first(kTaskMessageHead - 1), body.size()).is_ok());
  }
  std::vector<std::uint8_t> body = encode_body(TaskMessage{});
  body[0] = 0;  // a big-endian flag
  auto refused = decode_task_message_head(body, body.size());
  ASSERT_FALSE(refused.is_ok());
  EXPECT_NE(refused.error().find("endianness"), std::string::npos) << refused.error();
}

}  // namespace
}  // namespace drift
