// A task's serialized state in transit: split into chunks of about 1 MiB at the source, so large
// moves interleave with heartbeats and small messages (DESIGN.md §3), and put back together at
// the destination, bounded by the size the offer announced. Pure.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "protocol/status.h"

namespace drift {

inline constexpr std::uint32_t kDefaultChunkBytes = 1u << 20;

// Number of chunks a state of `bytes` takes (at least 1, so an empty state still arrives).
std::uint32_t chunk_count(std::uint64_t bytes, std::uint32_t chunk_bytes);
// The piece of `state` that chunk `index` carries.
std::span<const std::uint8_t> chunk_of(std::span<const std::uint8_t> state, std::uint32_t index,
                                       std::uint32_t chunk_bytes);

class StateAssembler {
 public:
  StateAssembler(std::uint64_t total_bytes, std::uint32_t chunks, std::uint32_t chunk_bytes);

  // Refuses an index out of range, a duplicate, or a piece of the wrong size.
  Status add(std::uint32_t index, std::span<const std::uint8_t> bytes);
  bool complete() const { return received_ == chunks_; }
  std::vector<std::uint8_t> take() { return std::move(state_); }

 private:
  std::uint64_t total_;
  std::uint32_t chunks_;
  std::uint32_t chunk_bytes_;
  std::uint32_t received_ = 0;
  std::vector<bool> have_;
  std::vector<std::uint8_t> state_;
};

}  // namespace drift
