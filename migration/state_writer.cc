#include "migration/state_writer.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace drift {

std::streamsize ByteCounter::xsputn(const char*, std::streamsize n) {
  count_ += static_cast<std::uint64_t>(n);
  return n;
}

ByteCounter::int_type ByteCounter::overflow(int_type c) {
  if (!traits_type::eq_int_type(c, traits_type::eof())) ++count_;
  return traits_type::not_eof(c);
}

StateWriter::StateWriter(BufferPool& pool, std::uint32_t piece_bytes, std::size_t front,
                         std::uint64_t total, Emit emit, const std::atomic<bool>* cancelled)
    : pool_(pool),
      piece_bytes_(piece_bytes),
      front_(front),
      total_(total),
      emit_(std::move(emit)),
      cancelled_(cancelled) {
  if (piece_bytes_ == 0) throw std::invalid_argument("StateWriter: piece size 0");
}

std::streamsize StateWriter::xsputn(const char* s, std::streamsize n) {
  const auto count = static_cast<std::uint64_t>(n);
  if (count > total_ - written_) {
    throw std::runtime_error("the state grew while it was written: more than the " +
                             std::to_string(total_) + " bytes counted before");
  }
  std::uint64_t left = count;
  while (left > 0) {
    if (!piece_) {
      const std::uint64_t size = std::min<std::uint64_t>(piece_bytes_, total_ - written_);
      piece_ = pool_.take(front_ + static_cast<std::size_t>(size));
      filled_ = 0;
    }
    const std::size_t room = piece_->size - front_ - filled_;
    const std::size_t n_here = static_cast<std::size_t>(std::min<std::uint64_t>(left, room));
    std::memcpy(piece_->data.get() + front_ + filled_, s, n_here);
    filled_ += n_here;
    written_ += n_here;
    s += n_here;
    left -= n_here;
    if (front_ + filled_ == piece_->size) emit_piece();
  }
  return n;
}

StateWriter::int_type StateWriter::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  const char ch = traits_type::to_char_type(c);
  xsputn(&ch, 1);
  return c;
}

void StateWriter::emit_piece() {
  if (cancelled_ && cancelled_->load(std::memory_order_acquire)) {
    throw std::runtime_error("the move was given up");
  }
  emit_(emitted_++, std::move(piece_));
  piece_.reset();
}

void StateWriter::finish() {
  if (written_ != total_) {
    throw std::runtime_error("the state shrank while it was written: " + std::to_string(written_) +
                             " bytes, " + std::to_string(total_) + " counted before");
  }
  if (emitted_ == 0 && !piece_) piece_ = pool_.take(front_);  // an empty state: one empty piece
  if (piece_) emit_piece();
}

}  // namespace drift
