#include "node/recovery/checkpoint_pieces.h"

#include <algorithm>

#include "protocol/codec.h"

namespace drift {

std::vector<Frame> checkpoint_frames(TaskId task, std::uint32_t generation, std::uint64_t step,
                                     std::uint32_t primary, SharedState state,
                                     std::uint32_t chunk_bytes) {
  const std::uint64_t total = state->size();
  const std::uint64_t chunk = std::max<std::uint32_t>(chunk_bytes, 1);
  std::vector<Frame> frames;
  std::uint64_t offset = 0;
  do {
    const std::uint64_t n = std::min(chunk, total - offset);
    Frame frame = make_frame(
        encode_prefix(CheckpointCopy{task, generation, step, primary, offset, total, {}}, n));
    frame.tail = std::span<const std::uint8_t>(state->data() + offset, n);
    frame.tail_owner = state;
    frames.push_back(std::move(frame));
    offset += n;
  } while (offset < total);
  return frames;
}

bool piece_fits(const CheckpointCopy& piece) {
  return piece.offset <= piece.total && piece.state.size() <= piece.total - piece.offset;
}

CheckpointAssembler::State CheckpointAssembler::add(CheckpointCopy& piece) {
  if (!piece_fits(piece)) return nullptr;
  if (piece.offset == 0 && piece.state.size() == piece.total) {  // the whole state at once
    partial_.erase(piece.task);
    return std::make_shared<const std::vector<std::uint8_t>>(std::move(piece.state));
  }
  Partial& partial = partial_[piece.task];
  if (partial.generation != piece.generation || partial.step != piece.step ||
      partial.state.size() != piece.total) {
    partial = Partial{piece.generation, piece.step, 0, std::vector<std::uint8_t>(piece.total)};
  }
  std::copy(piece.state.begin(), piece.state.end(),
            partial.state.begin() + static_cast<std::ptrdiff_t>(piece.offset));
  partial.received += piece.state.size();
  if (partial.received < piece.total) return nullptr;
  auto whole = std::make_shared<const std::vector<std::uint8_t>>(std::move(partial.state));
  partial_.erase(piece.task);
  return whole;
}

void CheckpointAssembler::drop_job(std::uint64_t job) {
  std::erase_if(partial_, [job](const auto& entry) { return entry.first.job == job; });
}

}  // namespace drift
