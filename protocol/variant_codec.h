// Messages of a std::variant of message structs (each with a `kType`) to frames and back: the
// one implementation behind codec.h (node to node) and worker_codec.h (daemon to worker).
// Decoding dispatches on the header's type to the matching alternative and runs it through a
// bounded archive; every WireError or Cereal exception becomes an error Status naming the message
// type and the reason.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <drift/archives.h>
#include "protocol/frame.h"
#include "protocol/msg_type.h"

namespace drift::detail {

template <class Variant>
MsgType variant_type(const Variant& msg) {
  return std::visit([](const auto& m) { return std::decay_t<decltype(m)>::kType; }, msg);
}

// The body is written after a reserved header, so a large message is never copied.
template <class Variant>
std::vector<std::uint8_t> encode_variant(const Variant& msg, std::uint16_t version) {
  PortableOutputArchive ar{std::vector<std::uint8_t>(kFrameHeaderSize)};
  std::visit([&ar](const auto& m) { ar(m); }, msg);
  std::vector<std::uint8_t> frame = std::move(ar).take_bytes();
  const std::size_t body = frame.size() - kFrameHeaderSize;
  if (body > std::numeric_limits<std::uint32_t>::max()) {
    throw std::length_error("message body of " + std::to_string(body) +
                            " bytes does not fit a frame");  // a caller's bug: chunk it
  }
  FrameHeader header;
  header.version = version;
  header.type = static_cast<std::uint16_t>(variant_type(msg));
  header.length = static_cast<std::uint32_t>(body);
  const auto bytes = encode_header(header);
  std::copy(bytes.begin(), bytes.end(), frame.begin());
  return frame;
}

template <class Variant, std::size_t I = 0>
Result<Variant> decode_variant(std::uint16_t type, std::span<const std::uint8_t> body) {
  if constexpr (I == std::variant_size_v<Variant>) {
    return Status::error("unknown message type " + std::to_string(type));
  } else {
    using Message = std::variant_alternative_t<I, Variant>;
    if (type != static_cast<std::uint16_t>(Message::kType)) {
      return decode_variant<Variant, I + 1>(type, body);
    }
    Message msg;
    if (Status s = decode_portable(body, msg); !s) {
      return Status::error("bad " + std::string(to_string(Message::kType)) +
                           " body: " + s.message());
    }
    return Variant(std::in_place_index<I>, std::move(msg));
  }
}

}  // namespace drift::detail
