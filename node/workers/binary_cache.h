// The executables shipped with jobs, kept in node.data_dir/apps/ under their SHA-256 (mode 0755,
// so that a worker's user may run them). One arrives piece by piece into a temporary file, every
// offset checked against its announced size; it is kept only when its bytes hash to its name.
// Used executables are touched; the least recently used ones go when the cache is over its
// size (worker.cache_bytes), except those in use. File operations on the caller's thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>

#include <drift/status.h>
#include "node/workers/sha256.h"

namespace drift {

class BinaryCache {
 public:
  BinaryCache(std::string dir, std::uint64_t max_bytes, std::uint64_t max_binary_bytes);

  // Makes the directory and clears what an earlier run left half-written.
  Status open();
  // Its path if it is here (and marks it used).
  std::optional<std::string> find(const std::string& sha256);

  // One arriving executable. add() takes the pieces in any order but each exactly once; done()
  // once every byte is in. Pieces in order are hashed as they come, so finish() need not read
  // the whole file again (no long pause on the caller's thread).
  class Incoming {
   public:
    Incoming() = default;
    Incoming(const Incoming&) = delete;
    Incoming& operator=(const Incoming&) = delete;
    ~Incoming();  // an executable not kept leaves no file behind
    Status add(std::uint64_t offset, std::span<const std::uint8_t> bytes);
    bool complete() const { return received_ == total_; }
    std::uint64_t received() const { return received_; }
    std::uint64_t total() const { return total_; }

   private:
    friend class BinaryCache;
    std::string sha256_;
    std::string tmp_;
    std::uint64_t total_ = 0;
    std::uint64_t received_ = 0;
    std::map<std::uint64_t, std::uint64_t> pieces_;  // offset -> length, to refuse overlaps
    int fd_ = -1;
    bool kept_ = false;
    Sha256 hash_;             // of the bytes [0, hashed_)
    std::uint64_t hashed_ = 0;
  };
  Result<std::unique_ptr<Incoming>> begin(const std::string& sha256, std::uint64_t total);
  // Checks the hash and keeps it: its path, or why not (the temporary file is gone either way).
  Result<std::string> finish(std::unique_ptr<Incoming> incoming);
  void abandon(std::unique_ptr<Incoming> incoming);

  // Drops the least recently used executables until the cache fits, sparing `in_use`.
  void evict(const std::set<std::string>& in_use);
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
  std::uint64_t max_bytes_;
  std::uint64_t max_binary_bytes_;
  std::uint64_t made_ = 0;
};

}  // namespace drift
