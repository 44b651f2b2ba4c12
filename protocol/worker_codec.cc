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

namespace {

std::size_t head_of(const WorkerMessage& empty) {
  return encode_worker(empty).size() - kFrameHeaderSize;
}

}  // namespace

std::size_t worker_head_bytes(std::uint16_t type) {
  static const std::size_t task_message = head_of(TaskMessage{});
  static const std::size_t state_bytes = head_of(WorkerStateBytes{});
  if (type == static_cast<std::uint16_t>(MsgType::kTaskMessage)) return task_message;
  if (type == static_cast<std::uint16_t>(MsgType::kWorkerStateBytes)) return state_bytes;
  return 0;
}

Result<WorkerMessage> decode_worker_head(std::uint16_t type, std::span<const std::uint8_t> head,
                                         std::uint64_t body_length) {
  const std::size_t size = worker_head_bytes(type);
  const char* name = to_string(static_cast<MsgType>(type));
  if (size == 0 || head.size() != size || body_length < size) {
    return Status::error(std::string("bad ") + name + " body: " + std::to_string(body_length) +
                         " bytes, its head " + std::to_string(size) + " and " +
                         std::to_string(head.size()) + " given");
  }
  // The head as the body of the message with an empty vector: its length field read apart.
  std::vector<std::uint8_t> empty(head.begin(), head.end());
  std::uint64_t length = 0;
  for (int i = 0; i < 8; ++i) {
    length |= std::uint64_t{empty[size - 8 + i]} << (8 * i);
    empty[size - 8 + i] = 0;
  }
  if (length != body_length - size) {
    return Status::error(std::string("bad ") + name + " body: a vector of " +
                         std::to_string(length) + " bytes at offset " + std::to_string(size - 8) +
                         " but " + std::to_string(body_length - size) + " bytes follow");
  }
  Result<WorkerMessage> msg = decode_worker_body(type, empty);
  if (msg) worker_tail(*msg).resize(length);
  return msg;
}

std::vector<std::uint8_t>& worker_tail(WorkerMessage& msg) {
  if (auto* m = std::get_if<TaskMessage>(&msg)) return m->payload;
  if (auto* m = std::get_if<WorkerStateBytes>(&msg)) return m->bytes;
  throw std::invalid_argument("worker_tail: the message has no tail vector");
}

}  // namespace drift
