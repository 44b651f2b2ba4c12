// Writing a task's state for a move (docs/architecture.md §3, §7) without holding it all in one buffer
// first. StateWriter is the streambuf a PortableOutputArchive writes into: it cuts the bytes into
// pieces of `piece_bytes` in pooled buffers and hands each to `emit` as soon as it is full, so
// the network sends piece 1 while piece 2 is being written. ByteCounter counts the bytes of a
// first pass, so the offer can announce the exact size before the pieces exist. One thread each.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <streambuf>

#include "migration/buffer_pool.h"

namespace drift {

// Counts what is written and keeps nothing.
class ByteCounter : public std::streambuf {
 public:
  std::uint64_t count() const { return count_; }

 protected:
  std::streamsize xsputn(const char*, std::streamsize n) override;
  int_type overflow(int_type c) override;

 private:
  std::uint64_t count_ = 0;
};

class StateWriter : public std::streambuf {
 public:
  // Piece `index` in order: the buffer holds `front` bytes left free for the caller (a frame's
  // header), then the piece's state bytes.
  using Emit = std::function<void(std::uint32_t index, BufferPool::Ptr piece)>;

  // `total` is the state's size as counted before: writing more throws, and so does finish()
  // after writing less. `cancelled` (may be null) stops the writing at the next piece by
  // throwing, when the move was given up meanwhile.
  StateWriter(BufferPool& pool, std::uint32_t piece_bytes, std::size_t front, std::uint64_t total,
              Emit emit, const std::atomic<bool>* cancelled = nullptr);

  // Emits the last piece: short, or empty for an empty state (pieces = chunk_count(total)).
  void finish();
  std::uint64_t written() const { return written_; }

 protected:
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int_type overflow(int_type c) override;

 private:
  void emit_piece();

  BufferPool& pool_;
  const std::uint32_t piece_bytes_;
  const std::size_t front_;
  const std::uint64_t total_;
  Emit emit_;
  const std::atomic<bool>* cancelled_;
  BufferPool::Ptr piece_;      // being filled; null until the first byte of a piece
  std::size_t filled_ = 0;     // state bytes in piece_
  std::uint32_t emitted_ = 0;  // pieces handed over
  std::uint64_t written_ = 0;
};

}  // namespace drift
