// A checkpoint copy larger than a chunk travels to the buddy in pieces (CheckpointCopy with an
// offset into `total` bytes), so no frame exceeds the peers' frame limit; the buddy puts the
// pieces back together. Pure; network thread only.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "protocol/out_frame.h"
#include "protocol/recovery_messages.h"

namespace drift {

using SharedState = std::shared_ptr<const std::vector<std::uint8_t>>;

// The frames of the copies of `state` to send, each carrying at most `chunk_bytes` of it (one,
// possibly empty, if it fits); they point into `state`, which they keep alive, instead of
// copying it.
std::vector<Frame> checkpoint_frames(TaskId task, std::uint32_t generation, std::uint64_t step,
                                     std::uint32_t primary, SharedState state,
                                     std::uint32_t chunk_bytes);

// Whether the piece's bytes lie within its total.
bool piece_fits(const CheckpointCopy& piece);

class CheckpointAssembler {
 public:
  using State = SharedState;

  // Adds a piece. Returns the whole state once all of it has arrived, else null. A piece of a
  // newer step or generation replaces what was gathered of an older one; a piece that lies
  // outside its total is dropped (null).
  State add(CheckpointCopy& piece);
  void drop_job(std::uint64_t job);
  void clear() { partial_.clear(); }
  std::size_t pending() const { return partial_.size(); }

 private:
  struct Partial {
    std::uint32_t generation = 0;
    std::uint64_t step = 0;
    std::uint64_t received = 0;
    std::vector<std::uint8_t> state;
  };
  std::map<TaskId, Partial> partial_;
};

}  // namespace drift
