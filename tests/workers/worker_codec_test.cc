// worker_codec: every daemon <-> worker message round-trips through a frame of
// kWorkerProtocolVersion; frames of another version, truncated or padded bodies, out-of-range
// enums and bools that are neither 0 nor 1 are refused with an error; a prefix plus the payload
// is the whole frame.
#include "protocol/worker_codec.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "protocol/codec.h"

namespace drift {
namespace {

constexpr std::uint32_t kWorkerMaxBody = 8 << 20;

JobSpec sample_spec() {
  JobSpec spec;
  spec.app = "heat2d";
  spec.tasks = 8;
  spec.steps = 1000;
  spec.params = {{"size", "64x64"}, {"alpha", "0.1"}};
  spec.runtime = {{"binary.x86_64", std::string(64, 'c')}, {"chaos_migrations", "2"}};
  return spec;
}

WorkerEffects sample_effects() {
  WorkerEffects e;
  e.index = 3;
  e.local_partners = {2, 4};
  e.contributions = {{7, {1.5, -2.25}}, {8, {}}};
  e.finished = true;
  e.result = {1, 2, 3};
  e.failed = true;
  e.error = "ctx.fail: diverged";
  e.checkpoint = true;
  e.checkpoint_step = 40;
  e.checkpoint_bytes = 123456;
  e.load = 0.75;
  e.splittable = true;
  e.has_merge_partner = true;
  e.merge_partner = 5;
  e.busy_seconds = 0.125;
  e.work_units = 4096;
  return e;
}

// One message of every alternative, no field left at its default where it has one to change.
std::vector<WorkerMessage> sample_worker_messages() {
  WorkerSetup setup;
  setup.job = 0x1122334455667788ull;
  setup.root = 2;
  setup.generation = 3;
  setup.node = 4;
  setup.spec = sample_spec();
  setup.threads = 2;
  setup.inline_us = 50;
  setup.max_payload = 1 << 24;
  setup.piece_bytes = 4096;
  setup.emulate_speed = 0.5;
  setup.emulate_unit_rate = 1e6;
  setup.emulate_load = {{1.0, 2.0, 0.5}, {10.0, 0.0, 0.9}};
  setup.emulate_elapsed_s = 12.5;
  return {
      setup,
      WorkerCreate{{0, 1, 7, 4294967295u}},
      WorkerCreated{true, "", {0.5, 1.0, 2.0}},
      WorkerStart{9},
      WorkerTaskControl{6, TaskControlAction::kRelease},
      WorkerPause{true},
      WorkerCapture{3, 77, 65536},
      WorkerCaptureSized{3, 77, 1ull << 33},
      WorkerCaptureDone{3, 77, true, "no error"},
      WorkerInstall{5, 999, false},
      WorkerInstalled{5, true, "", 1.25},
      WorkerStateBytes{StateBytesKind::kCheckpoint, 5, 0, 5, {9, 8, 7, 0, 255}},
      WorkerStop{1},
      WorkerReady{"heat2d", 4242},
      sample_effects(),
      TaskMessage{{9, 3}, {9, 4}, 17, 5, 2, {0xde, 0xad, 0xbe, 0xef}},
  };
}

std::vector<std::uint8_t> body_of(const WorkerMessage& msg) {
  const std::vector<std::uint8_t> frame = encode_worker(msg);
  return {frame.begin() + static_cast<std::ptrdiff_t>(kFrameHeaderSize), frame.end()};
}

const char* name_of(const WorkerMessage& msg) { return to_string(type_of(msg)); }

// Decodes a whole frame as the daemon and the worker do: header, then body.
Result<WorkerMessage> decode_worker_frame(const std::vector<std::uint8_t>& frame) {
  if (frame.size() < kFrameHeaderSize) return Status::error("short frame");
  auto header = decode_header(std::span<const std::uint8_t, kFrameHeaderSize>(frame.data(),
                                                                             kFrameHeaderSize),
                              kWorkerMaxBody, kWorkerProtocolVersion);
  if (!header) return header.status();
  if (header->length != frame.size() - kFrameHeaderSize) return Status::error("length mismatch");
  return decode_worker_body(header->type, std::span(frame).subspan(kFrameHeaderSize));
}

// The one byte in which the bodies of `a` and `b` differ (they differ in one bool or enum).
std::size_t differing_byte(const WorkerMessage& a, const WorkerMessage& b) {
  const std::vector<std::uint8_t> x = body_of(a);
  const std::vector<std::uint8_t> y = body_of(b);
  if (x.size() != y.size()) throw std::logic_error("bodies of different sizes");
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i] != y[i]) at.push_back(i);
  }
  if (at.size() != 1) throw std::logic_error("bodies differ in " + std::to_string(at.size()));
  return at[0];
}

// `a` with the byte where it differs from `b` set to `raw` must be refused, naming `reason`.
void expect_byte_refused(const WorkerMessage& a, const WorkerMessage& b, std::uint8_t raw,
                         const std::string& reason, const std::string& field) {
  std::vector<std::uint8_t> body = body_of(a);
  body[differing_byte(a, b)] = raw;
  Result<WorkerMessage> back = Status::error("not decoded");
  ASSERT_NO_THROW(back = decode_worker_body(static_cast<std::uint16_t>(type_of(a)), body))
      << field;
  ASSERT_FALSE(back) << field << " = " << int{raw} << " was taken";
  EXPECT_NE(back.error().find(std::string("bad ") + name_of(a) + " body"), std::string::npos)
      << back.error();
  EXPECT_NE(back.error().find(reason), std::string::npos) << field << ": " << back.error();
}

TEST(WorkerCodec, TheSamplesCoverEveryAlternative) {
  std::set<std::size_t> seen;
  for (const WorkerMessage& m : sample_worker_messages()) seen.insert(m.index());
  EXPECT_EQ(seen.size(), std::variant_size_v<WorkerMessage>);
}

TEST(WorkerCodec, EveryMessageRoundTripsThroughAWorkerFrame) {
  for (const WorkerMessage& msg : sample_worker_messages()) {
    const std::vector<std::uint8_t> frame = encode_worker(msg);
    ASSERT_GE(frame.size(), kFrameHeaderSize);
    auto header = decode_header(
        std::span<const std::uint8_t, kFrameHeaderSize>(frame.data(), kFrameHeaderSize),
        kWorkerMaxBody, kWorkerProtocolVersion);
    ASSERT_TRUE(header) << name_of(msg) << ": " << header.error();
    EXPECT_EQ(header->version, kWorkerProtocolVersion);
    EXPECT_EQ(header->type, static_cast<std::uint16_t>(type_of(msg))) << name_of(msg);
    EXPECT_EQ(header->length, frame.size() - kFrameHeaderSize) << name_of(msg);
    auto back = decode_worker_body(header->type, std::span(frame).subspan(kFrameHeaderSize));
    ASSERT_TRUE(back) << name_of(msg) << ": " << back.error();
    EXPECT_EQ(back->index(), msg.index()) << name_of(msg);
    EXPECT_TRUE(*back == msg) << name_of(msg);
  }
}

TEST(WorkerCodec, DefaultMessagesRoundTrip) {
  for (const WorkerMessage& sample : sample_worker_messages()) {
    const WorkerMessage msg = std::visit(
        [](const auto& m) { return WorkerMessage(std::decay_t<decltype(m)>{}); }, sample);
    auto back = decode_worker_frame(encode_worker(msg));
    ASSERT_TRUE(back) << name_of(msg) << ": " << back.error();
    EXPECT_TRUE(*back == msg) << name_of(msg);
  }
}

TEST(WorkerCodec, TypeOfIsTheWorkerMessageType) {
  EXPECT_EQ(type_of(WorkerMessage(WorkerSetup{})), MsgType::kWorkerSetup);
  EXPECT_EQ(type_of(WorkerMessage(WorkerEffects{})), MsgType::kWorkerEffects);
  EXPECT_EQ(type_of(WorkerMessage(TaskMessage{})), MsgType::kTaskMessage);
}

TEST(WorkerCodec, AFrameOfAnotherProtocolVersionIsRefused) {
  std::vector<std::uint8_t> frame = encode_worker(WorkerStop{});
  const std::uint16_t other = kWorkerProtocolVersion + 1;
  frame[4] = static_cast<std::uint8_t>(other & 0xff);
  frame[5] = static_cast<std::uint8_t>(other >> 8);
  auto back = decode_worker_frame(frame);
  ASSERT_FALSE(back);
  EXPECT_EQ(back.error(), "frame of protocol version " + std::to_string(other) + " (ours is " +
                              std::to_string(kWorkerProtocolVersion) + ")");
}

TEST(WorkerCodec, AMessageTypeOfTheNodeProtocolIsRefused) {
  const std::vector<std::uint8_t> body = body_of(WorkerStop{});
  auto back = decode_worker_body(static_cast<std::uint16_t>(MsgType::kHeartbeat), body);
  ASSERT_FALSE(back);
  EXPECT_EQ(back.error(), "unknown message type 10");
  EXPECT_FALSE(decode_worker_body(0, body));
  EXPECT_FALSE(decode_worker_body(0xffff, body));
}

// The node protocol's frames carry kProtocolVersion, not kWorkerProtocolVersion: the header
// refuses them, even a TaskMessage, whose body the worker protocol shares.
TEST(WorkerCodec, ANodeProtocolFrameIsRefusedByItsVersion) {
  for (const WireMessage& msg : {WireMessage(Heartbeat{}), WireMessage(TaskMessage{})}) {
    auto back = decode_worker_frame(encode(msg));
    ASSERT_FALSE(back);
    EXPECT_NE(back.error().find("frame of protocol version " + std::to_string(kProtocolVersion)),
              std::string::npos)
        << back.error();
  }
}

TEST(WorkerCodec, EveryTruncatedBodyIsRefused) {
  for (const WorkerMessage& msg : sample_worker_messages()) {
    const std::vector<std::uint8_t> body = body_of(msg);
    const auto type = static_cast<std::uint16_t>(type_of(msg));
    for (std::size_t cut = 0; cut < body.size(); ++cut) {
      Result<WorkerMessage> back = Status::error("not decoded");
      ASSERT_NO_THROW(back = decode_worker_body(type, std::span(body).first(cut)))
          << name_of(msg) << " cut at " << cut;
      EXPECT_FALSE(back) << name_of(msg) << " cut at " << cut << " of " << body.size();
    }
  }
}

TEST(WorkerCodec, TrailingBytesAreRefused) {
  for (const WorkerMessage& msg : sample_worker_messages()) {
    std::vector<std::uint8_t> body = body_of(msg);
    body.push_back(0);
    auto back = decode_worker_body(static_cast<std::uint16_t>(type_of(msg)), body);
    ASSERT_FALSE(back) << name_of(msg);
    EXPECT_NE(back.error().find("trailing bytes"), std::string::npos) << back.error();
  }
}

TEST(WorkerCodec, OutOfRangeTaskControlActionsAreRefused) {
  const WorkerTaskControl freeze{6, TaskControlAction::kFreeze};
  const WorkerTaskControl release{6, TaskControlAction::kRelease};
  for (std::uint8_t raw : {std::uint8_t{3}, std::uint8_t{4}, std::uint8_t{255}}) {
    expect_byte_refused(freeze, release, raw, "enum value " + std::to_string(raw) +
                        " out of range 0..2", "WorkerTaskControl.action");
  }
}

TEST(WorkerCodec, OutOfRangeStateBytesKindsAreRefused) {
  const WorkerStateBytes install{StateBytesKind::kInstall, 1, 0, 1, {5}};
  const WorkerStateBytes checkpoint{StateBytesKind::kCheckpoint, 1, 0, 1, {5}};
  for (std::uint8_t raw : {std::uint8_t{3}, std::uint8_t{128}, std::uint8_t{255}}) {
    expect_byte_refused(install, checkpoint, raw, "enum value " + std::to_string(raw) +
                        " out of range 0..2", "WorkerStateBytes.kind");
  }
}

TEST(WorkerCodec, BoolsOtherThanZeroOrOneAreRefused) {
  struct Case {
    const char* field;
    WorkerMessage with_false;
    WorkerMessage with_true;
  };
  std::vector<Case> cases{
      {"WorkerCreated.ok", WorkerCreated{false, "e", {1}}, WorkerCreated{true, "e", {1}}},
      {"WorkerPause.paused", WorkerPause{false}, WorkerPause{true}},
      {"WorkerCaptureDone.ok", WorkerCaptureDone{1, 2, false, "e"},
       WorkerCaptureDone{1, 2, true, "e"}},
      {"WorkerInstall.start", WorkerInstall{1, 2, false}, WorkerInstall{1, 2, true}},
      {"WorkerInstalled.ok", WorkerInstalled{1, false, "e", 0.5},
       WorkerInstalled{1, true, "e", 0.5}},
  };
  const auto effects_with = [](bool WorkerEffects::*field, bool value) {
    WorkerEffects e = sample_effects();
    e.*field = value;
    return WorkerMessage(e);
  };
  for (auto [name, field] : std::initializer_list<std::pair<const char*, bool WorkerEffects::*>>{
           {"WorkerEffects.finished", &WorkerEffects::finished},
           {"WorkerEffects.failed", &WorkerEffects::failed},
           {"WorkerEffects.checkpoint", &WorkerEffects::checkpoint},
           {"WorkerEffects.splittable", &WorkerEffects::splittable},
           {"WorkerEffects.has_merge_partner", &WorkerEffects::has_merge_partner}}) {
    cases.push_back({name, effects_with(field, false), effects_with(field, true)});
  }
  for (const Case& c : cases) {
    for (std::uint8_t raw : {std::uint8_t{2}, std::uint8_t{255}}) {
      expect_byte_refused(c.with_true, c.with_false, raw,
                          "bool value " + std::to_string(raw) + " is neither 0 nor 1", c.field);
    }
  }
}

TEST(WorkerCodec, CorruptedBodiesNeverThrow) {
  std::mt19937 random(20240611);
  for (const WorkerMessage& msg : sample_worker_messages()) {
    const std::vector<std::uint8_t> body = body_of(msg);
    const auto type = static_cast<std::uint16_t>(type_of(msg));
    for (int round = 0; round < 300; ++round) {
      std::vector<std::uint8_t> bad = body;
      const int flips = 1 + static_cast<int>(random() % 4);
      for (int i = 0; i < flips; ++i) {
        bad[random() % bad.size()] = static_cast<std::uint8_t>(random());
      }
      EXPECT_NO_THROW(decode_worker_body(type, bad)) << name_of(msg) << " round " << round;
    }
  }
}

TEST(WorkerCodec, PrefixPlusPayloadIsTheWholeFrame) {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{300}, std::size_t{70000}}) {
    std::vector<std::uint8_t> payload(n);
    for (std::size_t i = 0; i < n; ++i) payload[i] = static_cast<std::uint8_t>(i * 31 + 7);

    TaskMessage msg{{9, 3}, {9, 4}, 17, 5, 2, {}};
    std::vector<std::uint8_t> joined = encode_worker_prefix(msg, n);
    joined.insert(joined.end(), payload.begin(), payload.end());
    msg.payload = payload;
    EXPECT_EQ(joined, encode_worker(msg)) << n << " payload bytes";
    auto back = decode_worker_frame(joined);
    ASSERT_TRUE(back) << back.error();
    EXPECT_TRUE(*back == WorkerMessage(msg));

    WorkerStateBytes piece{StateBytesKind::kCapture, 4, 88, 0, {}};
    joined = encode_worker_prefix(piece, n);
    joined.insert(joined.end(), payload.begin(), payload.end());
    piece.bytes = payload;
    EXPECT_EQ(joined, encode_worker(piece)) << n << " state bytes";
  }
}

TEST(WorkerCodec, APrefixIsOnlyForAMessageWithoutItsPayload) {
  EXPECT_THROW(encode_worker_prefix(TaskMessage{{}, {}, 1, 2, 0, {1}}, 1), std::invalid_argument);
  EXPECT_THROW(encode_worker_prefix(WorkerStateBytes{StateBytesKind::kInstall, 1, 0, 0, {1}}, 1),
               std::invalid_argument);
}

TEST(WorkerCodec, APrefixForAPayloadBeyondAFrameThrowsLengthError) {
  EXPECT_THROW(encode_worker_prefix(TaskMessage{}, std::uint64_t{1} << 32), std::length_error);
  EXPECT_THROW(encode_worker_prefix(WorkerStateBytes{}, std::uint64_t{1} << 32),
               std::length_error);
}

// The two-step read of a message with a tail vector (frame_link.cc): the head decoded, the
// vector sized, the bytes filled in give the message decode_worker_body() gives.
TEST(WorkerCodec, AHeadAndItsTailDecodeAsTheWholeBody) {
  TaskMessage task;
  task.from = {0x1e01d0001, 3};
  task.to = {0x1e01d0001, 4};
  task.seq = 99;
  task.tag = 7;
  task.generation = 2;
  task.payload = std::vector<std::uint8_t>(70000, 0x5a);
  WorkerStateBytes state{StateBytesKind::kCapture, 5, 11, 0, std::vector<std::uint8_t>(3, 0xc3)};
  for (const WorkerMessage& msg : {WorkerMessage(task), WorkerMessage(state)}) {
    const auto type = static_cast<std::uint16_t>(type_of(msg));
    const std::vector<std::uint8_t> body = body_of(msg);
    const std::size_t head = worker_head_bytes(type);
    ASSERT_GT(head, 8u) << name_of(msg);
    auto decoded = decode_worker_head(type, std::span(body).first(head), body.size());
    ASSERT_TRUE(decoded) << name_of(msg) << ": " << decoded.error();
    std::vector<std::uint8_t>& tail = worker_tail(*decoded);
    ASSERT_EQ(tail.size(), body.size() - head);
    std::copy(body.begin() + static_cast<std::ptrdiff_t>(head), body.end(), tail.begin());
    EXPECT_EQ(*decoded, msg) << name_of(msg);
  }
  EXPECT_EQ(worker_head_bytes(static_cast<std::uint16_t>(MsgType::kWorkerEffects)), 0u);
}

TEST(WorkerCodec, AHeadWhoseLengthDisagreesWithTheBodyIsRefused) {
  TaskMessage task;
  task.payload = std::vector<std::uint8_t>(100, 1);
  const std::vector<std::uint8_t> body = body_of(WorkerMessage(task));
  const auto type = static_cast<std::uint16_t>(MsgType::kTaskMessage);
  const std::size_t head = worker_head_bytes(type);
  for (std::uint64_t length : {body.size() - 1, body.size() + 1, std::uint64_t{head - 1}}) {
    auto decoded = decode_worker_head(type, std::span(body).first(head), length);
    EXPECT_FALSE(decoded) << "a body of " << length << " bytes";
  }
  auto short_head = decode_worker_head(type, std::span(body).first(head - 1), body.size());
  EXPECT_FALSE(short_head);
  auto other = decode_worker_head(static_cast<std::uint16_t>(MsgType::kWorkerStart),
                                  std::span(body).first(head), body.size());
  EXPECT_FALSE(other);
}

}  // namespace
}  // namespace drift
