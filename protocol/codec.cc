// Messages to frames and back. Decoding dispatches on the header's type to the matching
// WireMessage alternative and runs it through decode_portable (a bounded archive); every
// WireError or Cereal exception becomes an error Status naming the message type and the reason.
#include "protocol/codec.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

#include <drift/archives.h>
#include "protocol/variant_codec.h"

namespace drift {

MsgType type_of(const WireMessage& msg) { return detail::variant_type(msg); }

namespace {

// `empty` ends with an empty byte vector, so its frame ends with that vector's length, 0.
std::vector<std::uint8_t> prefix_of(const WireMessage& empty, std::uint64_t payload_size) {
  std::vector<std::uint8_t> frame = encode(empty);
  const std::uint64_t body = frame.size() - kFrameHeaderSize + payload_size;
  if (body > std::numeric_limits<std::uint32_t>::max()) {
    throw std::length_error("payload of " + std::to_string(payload_size) + " bytes is too large");
  }
  for (int i = 0; i < 8; ++i) {
    frame[frame.size() - 8 + i] = static_cast<std::uint8_t>(payload_size >> (8 * i));
  }
  FrameHeader header;
  header.type = static_cast<std::uint16_t>(type_of(empty));
  header.length = static_cast<std::uint32_t>(body);
  const auto bytes = encode_header(header);
  std::copy(bytes.begin(), bytes.end(), frame.begin());
  return frame;
}

}  // namespace

std::vector<std::uint8_t> encode_prefix(const TaskMessage& without_payload,
                                        std::uint64_t payload_size) {
  if (!without_payload.payload.empty()) throw std::invalid_argument("payload must be empty");
  return prefix_of(without_payload, payload_size);
}

std::vector<std::uint8_t> encode_prefix(const MigrationChunk& without_payload,
                                        std::uint64_t payload_size) {
  if (!without_payload.bytes.empty()) throw std::invalid_argument("bytes must be empty");
  return prefix_of(without_payload, payload_size);
}

std::vector<std::uint8_t> encode_prefix(const CheckpointCopy& without_state,
                                        std::uint64_t state_size) {
  if (!without_state.state.empty()) throw std::invalid_argument("state must be empty");
  return prefix_of(without_state, state_size);
}

std::vector<std::uint8_t> encode_body(const WireMessage& msg) {
  return std::visit([](const auto& m) { return encode_portable(m); }, msg);
}

std::vector<std::uint8_t> encode(const WireMessage& msg) {
  return detail::encode_variant(msg, kProtocolVersion);
}

Result<WireMessage> decode_body(std::uint16_t type, std::span<const std::uint8_t> body) {
  return detail::decode_variant<WireMessage>(type, body);
}

Result<ChunkView> decode_chunk_view(std::span<const std::uint8_t> body) {
  try {
    BoundedInputArchive ar(body);
    ChunkView view;
    ar(view.task, view.epoch, view.index);
    const std::size_t length = ar.load_length();  // refuses a length beyond the body
    view.bytes = body.subspan(ar.offset(), length);
    if (ar.offset() + length != body.size()) {
      return Status::error("bad MigrationChunk body: trailing bytes: " +
                           detail::byte_count(body.size() - ar.offset() - length) +
                           " after the value ended at offset " +
                           std::to_string(ar.offset() + length));
    }
    return view;
  } catch (const WireError& e) {
    return Status::error(std::string("bad MigrationChunk body: ") + e.what());
  } catch (const cereal::Exception& e) {
    return Status::error(std::string("bad MigrationChunk body: ") + e.what());
  }
}

Result<TaskMessage> decode_task_message_head(std::span<const std::uint8_t> head,
                                             std::uint64_t body_length) {
  static_assert(kTaskMessageHead == 1 + 12 + 12 + 8 + 4 + 4 + 8,
                "flag, from, to, seq, tag, generation, length");
  if (head.size() != kTaskMessageHead || body_length < kTaskMessageHead) {
    return Status::error("bad TaskMessage body: " + detail::byte_count(body_length) +
                         " is shorter than its " + std::to_string(kTaskMessageHead) + "-byte head");
  }
  try {
    BoundedInputArchive ar(head);
    TaskMessage msg;
    std::uint64_t length = 0;
    ar(msg.from, msg.to, msg.seq, msg.tag, msg.generation, length);
    if (length != body_length - kTaskMessageHead) {
      return Status::error("bad TaskMessage body: payload length " + std::to_string(length) +
                           " at offset " + std::to_string(kTaskMessageHead - 8) + " but " +
                           detail::byte_count(body_length - kTaskMessageHead) + " follow");
    }
    return msg;
  } catch (const WireError& e) {
    return Status::error(std::string("bad TaskMessage body: ") + e.what());
  } catch (const cereal::Exception& e) {
    return Status::error(std::string("bad TaskMessage body: ") + e.what());
  }
}

Result<WireMessage> decode_frame(std::span<const std::uint8_t> frame, std::uint32_t max_body) {
  if (frame.size() < kFrameHeaderSize) {
    return Status::error("frame of " + std::to_string(frame.size()) +
                         " bytes is shorter than its " + std::to_string(kFrameHeaderSize) +
                         "-byte header");
  }
  Result<FrameHeader> header = decode_header(frame.first<kFrameHeaderSize>(), max_body);
  if (!header) return header.status();
  const std::span<const std::uint8_t> body = frame.subspan(kFrameHeaderSize);
  if (body.size() != header->length) {
    return Status::error("frame carries " + std::to_string(body.size()) +
                         " body bytes but its header says " + std::to_string(header->length));
  }
  return decode_body(header->type, body);
}

}  // namespace drift
