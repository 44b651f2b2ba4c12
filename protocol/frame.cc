// Frame header encoding: each field written byte by byte, least-significant byte first, so the
// header is the same on every host whatever its byte order.
#include "protocol/frame.h"

#include <cstdio>
#include <string>

namespace drift {
namespace {

template <class T>
void put_le(std::uint8_t* out, T value) {
  for (std::size_t i = 0; i < sizeof(T); ++i) out[i] = static_cast<std::uint8_t>(value >> (8 * i));
}

template <class T>
T get_le(const std::uint8_t* in) {
  T value = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) value |= static_cast<T>(T{in[i]} << (8 * i));
  return value;
}

std::string hex32(std::uint32_t v) {
  char text[16];
  std::snprintf(text, sizeof(text), "0x%08x", static_cast<unsigned>(v));
  return text;
}

}  // namespace

std::array<std::uint8_t, kFrameHeaderSize> encode_header(const FrameHeader& h) {
  std::array<std::uint8_t, kFrameHeaderSize> out{};
  put_le(out.data() + 0, h.magic);
  put_le(out.data() + 4, h.version);
  put_le(out.data() + 6, h.type);
  put_le(out.data() + 8, h.length);
  return out;
}

Result<FrameHeader> decode_header(std::span<const std::uint8_t, kFrameHeaderSize> bytes,
                                  std::uint32_t max_body, std::uint16_t version) {
  FrameHeader h;
  h.magic = get_le<std::uint32_t>(bytes.data() + 0);
  h.version = get_le<std::uint16_t>(bytes.data() + 4);
  h.type = get_le<std::uint16_t>(bytes.data() + 6);
  h.length = get_le<std::uint32_t>(bytes.data() + 8);
  if (h.magic != kFrameMagic) {
    return Status::error("bad frame magic " + hex32(h.magic) + " (expected " + hex32(kFrameMagic) +
                         ")");
  }
  if (h.version != version) {
    return Status::error("frame of protocol version " + std::to_string(h.version) + " (ours is " +
                         std::to_string(version) + ")");
  }
  if (h.length > max_body) {
    return Status::error("frame body of " + std::to_string(h.length) +
                         " bytes exceeds the maximum of " + std::to_string(max_body));
  }
  return h;
}

}  // namespace drift
