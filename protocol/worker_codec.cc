#include "protocol/worker_codec.h"

#include <limits>
#include <stdexcept>
#include <string>

#include "protocol/variant_codec.h"

namespace drift {

std::vector<std::uint8_t> encode_worker(const WorkerMessage& msg) {
  return detail::encode_variant(msg, kWorkerProtocolVersion);
}

MsgType type_of(const WorkerMessage& msg) { return detail::variant_type(msg); }

Result<WorkerMessage> decode_worker_body(std::uint16_t type, std::span<const std::uint8_t> body) {
  return detail::decode_variant<WorkerMessage>(type, body);
}

namespace {

// `empty` ends with an empty byte vector, so its frame ends with that vector's length, 0.
std::vector<std::uint8_t> prefix_of(const WorkerMessage& empty, std::uint64_t size) {
  std::vector<std::uint8_t> frame = encode_worker(empty);
  const std::uint64_t body = frame.size() - kFrameHeaderSize + size;
  if (body > std::numeric_limits<std::uint32_t>::max()) {
    throw std::length_error("payload of " + std::to_string(size) + " bytes is too large");
  }
  for (int i = 0; i < 8; ++i) {
    frame[frame.size() - 8 + i] = static_cast<std::uint8_t>(size >> (8 * i));
  }
  FrameHeader header;
  header.version = kWorkerProtocolVersion;
  header.type = static_cast<std::uint16_t>(type_of(empty));
  header.length = static_cast<std::uint32_t>(body);
  const auto bytes = encode_header(header);
  std::copy(bytes.begin(), bytes.end(), frame.begin());
  return frame;
}

}  // namespace

std::vector<std::uint8_t> encode_worker_prefix(const TaskMessage& without_payload,
                                               std::uint64_t size) {
  if (!without_payload.payload.empty()) throw std::invalid_argument("payload must be empty");
  return prefix_of(without_payload, size);
}

std::vector<std::uint8_t> encode_worker_prefix(const WorkerStateBytes& without_bytes,
                                               std::uint64_t size) {
  if (!without_bytes.bytes.empty()) throw std::invalid_argument("bytes must be empty");
  return prefix_of(without_bytes, size);
}

}  // namespace drift
