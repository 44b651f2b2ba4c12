#include "migration/state_stream.h"

#include <stdexcept>
#include <utility>

namespace drift {

StateStream::StateStream(std::uint64_t total_bytes, std::uint32_t chunks, std::uint32_t chunk_bytes)
    : total_(static_cast<std::size_t>(total_bytes)), chunks_(total_bytes, chunks, chunk_bytes) {}

Status StateStream::add(std::uint32_t index, std::span<const std::uint8_t> bytes,
                        std::shared_ptr<const void> owner) {
  {
    std::lock_guard lock(mu_);
    if (auto st = chunks_.add(index, bytes, std::move(owner)); !st) return st;
  }
  arrived_.notify_one();
  return Status::ok();
}

bool StateStream::complete() const {
  std::lock_guard lock(mu_);
  return chunks_.complete();
}

void StateStream::fail(const std::string& reason) {
  {
    std::lock_guard lock(mu_);
    if (!failed_) failed_ = reason;
  }
  arrived_.notify_all();
}

std::span<const std::uint8_t> StateStream::next() {
  std::shared_ptr<const void> done_with;  // released after the lock: it may return a buffer
  std::unique_lock lock(mu_);
  done_with = std::move(reading_);
  arrived_.wait(lock, [&] { return failed_ || next_ >= chunks_.chunks() || chunks_.has(next_); });
  if (failed_) throw std::runtime_error(*failed_);
  if (next_ >= chunks_.chunks()) throw std::runtime_error("read past the last chunk");
  StateAssembler::Piece piece = chunks_.take_piece(next_++);
  reading_ = std::move(piece.owner);
  return piece.bytes;
}

}  // namespace drift
