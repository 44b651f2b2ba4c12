// Daemon <-> worker messages (worker_messages.h) to frames and back, with the same checks as
// codec.h: frames carry kWorkerProtocolVersion, decoding is bounded and never throws.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <drift/status.h>
#include "protocol/frame.h"
#include "protocol/worker_messages.h"

namespace drift {

std::vector<std::uint8_t> encode_worker(const WorkerMessage& msg);
MsgType type_of(const WorkerMessage& msg);
Result<WorkerMessage> decode_worker_body(std::uint16_t type, std::span<const std::uint8_t> body);

// The start of the frame of a message whose last field is a byte vector of `size` bytes that
// the caller writes after it without a copy (as codec.h's encode_prefix).
std::vector<std::uint8_t> encode_worker_prefix(const TaskMessage& without_payload,
                                               std::uint64_t size);
std::vector<std::uint8_t> encode_worker_prefix(const WorkerStateBytes& without_bytes,
                                               std::uint64_t size);

// A message whose body is a fixed-size head ending with the length of a last byte vector
// (TaskMessage, WorkerStateBytes) can be read in two steps, its bytes straight into the
// message's own vector: worker_head_bytes() is the head's size for such a type (0 for any other
// type); decode_worker_head() decodes the head of a body of `body_length` bytes, checks that the
// vector's length is exactly the rest of the body, and sizes the vector for the caller to fill;
// worker_tail() is that vector.
std::size_t worker_head_bytes(std::uint16_t type);
Result<WorkerMessage> decode_worker_head(std::uint16_t type, std::span<const std::uint8_t> head,
                                         std::uint64_t body_length);
std::vector<std::uint8_t>& worker_tail(WorkerMessage& msg);

}  // namespace drift
