// The chunks of a large state read while the rest still arrive (docs/architecture.md §7): the installer
// loads the task from chunk 0 on, waiting for each next chunk, instead of waiting for the last
// one first, so loading overlaps the transfer. The network thread adds chunks (checked as by
// StateAssembler: index, duplicates, size); the installer reads them in order through
// BoundedInputArchive and each chunk's buffer is let go once read. fail() ends a read that waits,
// by making next() throw. Thread-safe.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>

#include "migration/state_transfer.h"
#include <drift/bounded_input_archive.h>
#include <drift/status.h>

namespace drift {

class StateStream final : public PieceSource {
 public:
  StateStream(std::uint64_t total_bytes, std::uint32_t chunks, std::uint32_t chunk_bytes);

  // Network thread. `owner` keeps `bytes` alive; without one they are copied.
  Status add(std::uint32_t index, std::span<const std::uint8_t> bytes,
             std::shared_ptr<const void> owner);
  bool complete() const;
  // Any thread; the first reason is kept.
  void fail(const std::string& reason);

  // The reader (installer) thread.
  std::size_t total() const override { return total_; }
  std::span<const std::uint8_t> next() override;

 private:
  const std::size_t total_;
  mutable std::mutex mu_;
  std::condition_variable arrived_;
  StateAssembler chunks_;
  std::uint32_t next_ = 0;
  std::shared_ptr<const void> reading_;  // keeps the piece being read alive
  std::optional<std::string> failed_;
};

}  // namespace drift
