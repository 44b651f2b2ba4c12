// Whole messages to and from bytes. encode() gives a complete frame (header + body); decode_body()
// turns one received body into the message its type names, or an error naming what was wrong
// (unknown type, truncated body, length beyond the remaining bytes, bad enum or bool, trailing
// bytes). Decoding never allocates more than a small multiple of the body size.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "protocol/frame.h"
#include "protocol/messages.h"
#include <drift/status.h>

namespace drift {

// A body must stay below 4 GiB (std::length_error otherwise: a caller's bug; send large state in
// chunks). Receivers refuse anything above their configured maximum anyway.
std::vector<std::uint8_t> encode(const WireMessage& msg);
std::vector<std::uint8_t> encode_body(const WireMessage& msg);
MsgType type_of(const WireMessage& msg);

// The start of the frame of a message whose last field is a byte vector (TaskMessage::payload,
// MigrationChunk::bytes, CheckpointCopy::state), when those `payload_size` bytes follow
// separately: prefix + payload is exactly encode(message with them). Lets a sender write large
// payloads without a copy.
// `without_payload` must have that vector empty.
std::vector<std::uint8_t> encode_prefix(const TaskMessage& without_payload,
                                        std::uint64_t payload_size);
std::vector<std::uint8_t> encode_prefix(const MigrationChunk& without_payload,
                                        std::uint64_t payload_size);
std::vector<std::uint8_t> encode_prefix(const CheckpointCopy& without_state,
                                        std::uint64_t state_size);

Result<WireMessage> decode_body(std::uint16_t type, std::span<const std::uint8_t> body);

// A MigrationChunk read in place: `bytes` points into the body it was decoded from, so a large
// state is copied once, straight into its assembly buffer. Same checks as decode_body.
struct ChunkView {
  TaskId task;
  std::uint64_t epoch = 0;
  std::uint32_t index = 0;
  std::span<const std::uint8_t> bytes;
  // Keeps `bytes` valid after the call that hands the view over; null: valid only during it.
  std::shared_ptr<const void> owner = nullptr;
};
Result<ChunkView> decode_chunk_view(std::span<const std::uint8_t> body);

// A large TaskMessage can be read in two parts, its payload straight into the message's own
// buffer: the body's first kTaskMessageHead bytes (the fixed fields and the payload's length),
// then the payload. decode_task_message_head() decodes the first part of a body of
// `body_length` bytes and checks that the payload's length is exactly the rest of the body, as
// decode_body() would; the payload is left empty for the caller to fill.
inline constexpr std::size_t kTaskMessageHead = 49;
Result<TaskMessage> decode_task_message_head(std::span<const std::uint8_t> head,
                                             std::uint64_t body_length);
// A complete frame: header checks (magic, version, max_body) then the body.
Result<WireMessage> decode_frame(std::span<const std::uint8_t> frame, std::uint32_t max_body);

}  // namespace drift
