// The fixed frame header (docs/architecture.md §4): magic u32 | version u16 | type u16 | length u32, encoded
// byte by byte, little-endian. The length is checked against a maximum before anything is
// allocated for the body.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include <drift/status.h>

namespace drift {

inline constexpr std::uint32_t kFrameMagic = 0x54465244;  // "DRFT" on the wire
inline constexpr std::uint16_t kProtocolVersion = 1;
inline constexpr std::size_t kFrameHeaderSize = 12;
// Limit for frames before the handshake completes: a Hello or HelloAuth is far smaller.
inline constexpr std::uint32_t kHandshakeMaxBody = 4096;
// The largest body driftctl accepts from a daemon: an answer the daemon builds for a client
// (a list of jobs, say) keeps within it whatever net.max_frame_bytes allows between daemons.
inline constexpr std::uint32_t kClientMaxBody = 8u << 20;

struct FrameHeader {
  std::uint32_t magic = kFrameMagic;
  std::uint16_t version = kProtocolVersion;
  std::uint16_t type = 0;
  std::uint32_t length = 0;  // body bytes after the header
};

std::array<std::uint8_t, kFrameHeaderSize> encode_header(const FrameHeader& h);
// Refuses a wrong magic, another protocol version than `version`, or a length above max_body.
Result<FrameHeader> decode_header(std::span<const std::uint8_t, kFrameHeaderSize> bytes,
                                  std::uint32_t max_body,
                                  std::uint16_t version = kProtocolVersion);

}  // namespace drift
