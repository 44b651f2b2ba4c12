// A checkpoint copy larger than a chunk travels to the buddy in pieces (CheckpointCopy with an
// offset into `total` bytes), so no frame exceeds the peers' frame limit; the buddy puts the
// pieces back together. Pure; network thread only.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
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

// Puts a copy's pieces back together. They come in order (one sender, one connection, sent in
// order), so each piece is appended where the previous one ended: the state's memory is reserved
// once and filled piece by piece, never zeroed or copied whole in one go (a 100 MB state would
// hold the network thread of a slow node for a long time).
class CheckpointAssembler {
 public:
  using State = SharedState;

  // Copies larger than `max_total` bytes are refused (a peer cannot make us reserve more).
  explicit CheckpointAssembler(std::uint64_t max_total = std::uint64_t{1} << 32)
      : max_total_(max_total) {}

  // Adds a piece. Returns the whole state once all of it has arrived, else null. A piece of a
  // newer step or generation replaces what was gathered of an older one; a piece that lies
  // outside its total, of a total over the limit, or not where the previous one ended (a piece
  // was lost) drops what was gathered of its copy (null; why() says so).
  State add(CheckpointCopy& piece);
  void drop_job(std::uint64_t job);
  void clear() { partial_.clear(); }
  std::size_t pending() const { return partial_.size(); }
  // The jobs it is gathering a copy of, ascending.
  std::vector<std::uint64_t> jobs() const;
  // Why the last add() refused its piece; empty if it did not.
  const std::string& why() const { return why_; }

 private:
  struct Partial {
    std::uint32_t generation = 0;
    std::uint64_t step = 0;
    std::uint64_t total = 0;
    std::vector<std::uint8_t> state;  // the first state.size() bytes of `total`
  };
  std::uint64_t max_total_;
  std::map<TaskId, Partial> partial_;
  std::string why_;
};

}  // namespace drift
