// An encoded frame waiting to be written: `head` (the header and body, or their start; may be
// null) and, for large payloads and state, a `tail` slice of a shared buffer written after it
// without a copy (gather write). Frames are immutable once made, so one frame can be queued to
// several peers.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace drift {

struct Frame {
  std::shared_ptr<const std::vector<std::uint8_t>> head;
  std::shared_ptr<const void> tail_owner;  // keeps `tail` alive
  std::span<const std::uint8_t> tail;

  std::size_t size() const { return (head ? head->size() : 0) + tail.size(); }
};

inline Frame make_frame(std::vector<std::uint8_t> bytes) {
  return Frame{std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes)), nullptr, {}};
}

}  // namespace drift
