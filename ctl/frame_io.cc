#include "ctl/frame_io.h"

#include <array>
#include <vector>

#include "protocol/codec.h"
#include "protocol/frame.h"

namespace drift::ctl {

Status write_message(TcpStream& stream, const WireMessage& msg, Clock::time_point deadline) {
  const std::vector<std::uint8_t> frame = encode(msg);
  if (auto ec = stream.write_all(frame, deadline)) {
    return Status::error(std::string("sending ") + to_string(type_of(msg)) + ": " + describe(ec));
  }
  return Status::ok();
}

Result<WireMessage> read_message(TcpStream& stream, std::uint32_t max_body,
                                 Clock::time_point deadline) {
  std::array<std::uint8_t, kFrameHeaderSize> header_bytes{};
  if (auto ec = stream.read_exact(header_bytes, deadline)) return Status::error(describe(ec));
  const Result<FrameHeader> header = decode_header(header_bytes, max_body);
  if (!header) return Status::error("bad frame header: " + header.error());
  std::vector<std::uint8_t> body(header->length);
  if (auto ec = stream.read_exact(body, deadline)) return Status::error(describe(ec));
  Result<WireMessage> msg = decode_body(header->type, body);
  if (!msg) return Status::error("bad message body: " + msg.error());
  return msg;
}

}  // namespace drift::ctl
