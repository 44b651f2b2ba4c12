// A task's serialized state in transit: split into chunks of about 1 MiB at the source, so large
// moves interleave with heartbeats and small messages (docs/architecture.md §3), and collected at the
// destination, bounded by the size the offer announced. The destination keeps the chunks as they
// arrived (StatePieces) and the task is loaded from them directly, without copying them into
// one buffer first. Pure.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <drift/status.h>

namespace drift {

inline constexpr std::uint32_t kDefaultChunkBytes = 1u << 20;

// Number of chunks a state of `bytes` takes (at least 1, so an empty state still arrives).
std::uint32_t chunk_count(std::uint64_t bytes, std::uint32_t chunk_bytes);
// The piece of `state` that chunk `index` carries.
std::span<const std::uint8_t> chunk_of(std::span<const std::uint8_t> state, std::uint32_t index,
                                       std::uint32_t chunk_bytes);

// A state as a sequence of pieces, each kept alive by its owner (BoundedInputArchive reads the
// spans as one input).
class StatePieces {
 public:
  void add(std::span<const std::uint8_t> bytes, std::shared_ptr<const void> owner);
  std::span<const std::span<const std::uint8_t>> spans() const { return spans_; }
  std::uint64_t size() const { return size_; }
  // The pieces copied into one vector (tests, small states).
  std::vector<std::uint8_t> flatten() const;

 private:
  std::vector<std::span<const std::uint8_t>> spans_;
  std::vector<std::shared_ptr<const void>> owners_;
  std::uint64_t size_ = 0;
};

class StateAssembler {
 public:
  struct Piece {
    std::span<const std::uint8_t> bytes;
    std::shared_ptr<const void> owner;
  };

  StateAssembler(std::uint64_t total_bytes, std::uint32_t chunks, std::uint32_t chunk_bytes);

  // Refuses an index out of range, a duplicate, or a piece of the wrong size. With an `owner`
  // keeping `bytes` alive the piece is kept as it is; without one it is copied.
  Status add(std::uint32_t index, std::span<const std::uint8_t> bytes,
             std::shared_ptr<const void> owner = nullptr);
  bool complete() const { return received_ == chunks_; }
  std::uint32_t chunks() const { return chunks_; }
  bool has(std::uint32_t index) const { return index < chunks_ && have_[index]; }
  // The chunks in order; call once, when complete().
  StatePieces take();
  // Chunk `index` (which has() arrived), handed over: a reader that takes them one by one.
  Piece take_piece(std::uint32_t index) { return std::move(pieces_[index]); }

 private:
  std::uint64_t total_;
  std::uint32_t chunks_;
  std::uint32_t chunk_bytes_;
  std::uint32_t received_ = 0;
  std::vector<bool> have_;
  std::vector<Piece> pieces_;
};

}  // namespace drift
