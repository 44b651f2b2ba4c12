// What a chatter task passes to ctx.finish(), and how its digest is formed: over the receiver's
// per-channel message counts (the last counter of each sender) and its order-free hash of every
// message received. combine() sums the digests (wrapping), so the job's checksum equals the
// serial reference's exactly when every message arrived exactly once with the right content.
#pragma once

#include <cstdint>
#include <span>

namespace drift::chatter {

struct ChatterResult {
  std::uint64_t digest = 0;
  std::uint64_t messages = 0;  // received
  std::uint64_t bytes = 0;     // filler bytes received

  friend bool operator==(const ChatterResult&, const ChatterResult&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(digest, messages, bytes);
  }
};

// last_counters[s] = messages received from task s (0 for the receiver itself).
std::uint64_t receiver_digest(std::uint32_t receiver, std::span<const std::uint64_t> last_counters,
                              std::uint64_t received_hash);

}  // namespace drift::chatter
