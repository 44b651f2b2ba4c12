#include "node/recovery/checkpoint_pieces.h"

#include <new>

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
  why_.clear();
  if (!piece_fits(piece)) {
    why_ = "it lies outside its " + std::to_string(piece.total) + " bytes";
  } else if (piece.total > max_total_) {
    why_ = "its copy of " + std::to_string(piece.total) + " bytes is larger than the " +
           std::to_string(max_total_) + " allowed";
  }
  if (!why_.empty()) {
    partial_.erase(piece.task);
    return nullptr;
  }
  if (piece.offset == 0 && piece.state.size() == piece.total) {  // the whole state at once
    partial_.erase(piece.task);
    return std::make_shared<const std::vector<std::uint8_t>>(std::move(piece.state));
  }
  auto it = partial_.find(piece.task);
  if (it != partial_.end() && (it->second.generation > piece.generation ||
                               (it->second.generation == piece.generation &&
                                it->second.step > piece.step))) {
    why_ = "a copy of a later step is on its way";  // a late piece of an older copy
    return nullptr;
  }
  if (it == partial_.end() || it->second.generation != piece.generation ||
      it->second.step != piece.step || it->second.total != piece.total) {
    if (piece.offset != 0) {  // the start of a copy we never saw
      if (it != partial_.end()) partial_.erase(it);
      why_ = "it starts at byte " + std::to_string(piece.offset) + " of a copy not begun here";
      return nullptr;
    }
    Partial fresh{piece.generation, piece.step, piece.total, {}};
    try {
      fresh.state.reserve(piece.total);
    } catch (const std::bad_alloc&) {
      if (it != partial_.end()) partial_.erase(it);
      why_ = "no memory for its copy of " + std::to_string(piece.total) + " bytes";
      return nullptr;
    }
    it = partial_.insert_or_assign(piece.task, std::move(fresh)).first;
  }
  Partial& partial = it->second;
  if (piece.offset != partial.state.size()) {
    why_ = "it starts at byte " + std::to_string(piece.offset) + " where byte " +
           std::to_string(partial.state.size()) + " was next (a piece was lost)";
    partial_.erase(it);
    return nullptr;
  }
  partial.state.insert(partial.state.end(), piece.state.begin(), piece.state.end());
  if (partial.state.size() < partial.total) return nullptr;
  auto whole = std::make_shared<const std::vector<std::uint8_t>>(std::move(partial.state));
  partial_.erase(it);
  return whole;
}

void CheckpointAssembler::drop_job(std::uint64_t job) {
  std::erase_if(partial_, [job](const auto& entry) { return entry.first.job == job; });
}

std::vector<std::uint64_t> CheckpointAssembler::jobs() const {
  std::vector<std::uint64_t> out;
  for (const auto& [task, partial] : partial_) {
    if (out.empty() || out.back() != task.job) out.push_back(task.job);  // TaskId orders by job
  }
  return out;
}

}  // namespace drift
