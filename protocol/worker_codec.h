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

}  // namespace drift
