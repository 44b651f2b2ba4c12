// Whole wire messages over a TcpStream: a frame is the 12-byte header (checked against a maximum
// body size before anything is allocated) followed by the body (protocol/codec.h).
#pragma once

#include <cstdint>

#include "ctl/tcp_stream.h"
#include "protocol/frame.h"
#include "protocol/messages.h"
#include <drift/status.h>

namespace drift::ctl {

Status write_message(TcpStream& stream, const WireMessage& msg, Clock::time_point deadline);

// One message; the error says what went wrong (closed, timed out, bad header, bad body).
// stream.closed_by_peer() tells a peer that hung up apart from the other failures.
Result<WireMessage> read_message(TcpStream& stream, std::uint32_t max_body,
                                 Clock::time_point deadline);

}  // namespace drift::ctl
