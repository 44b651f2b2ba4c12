// Checkpoint copies on disk (checkpoint.disk, docs/architecture.md §9). Every copy a node keeps in memory
// (CheckpointStore: its own tasks' and, as buddy, a neighbour's) is also written under DIR =
// <node.data_dir>/checkpoints as DIR/<job, 16 hex digits>/<step>/<task index>, and deleted when
// the memory copy is, so that a node killed and restarted still holds the copies it held and can
// offer them to the jobs' roots. A file is written under a temporary name, synced and renamed, so
// a crash leaves whole copies or none. Writes and deletions run in the order they were asked for
// on one thread of their own, so that writing a large copy does not hold up the network thread;
// a write still queued when a later step of its job is committed is skipped, so a slow disk
// falls behind by at most the copies of one checkpoint. load() reads what a previous run left,
// at start-up.
#pragma once

#include <asio/thread_pool.hpp>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <drift/status.h>
#include "protocol/wire_types.h"

namespace drift {

class CheckpointDisk {
 public:
  using State = std::shared_ptr<const std::vector<std::uint8_t>>;
  struct Copy {
    TaskId task;
    std::uint64_t step = 0;
    State state;
  };
  struct Loaded {
    std::vector<Copy> copies;
    std::uint64_t bytes = 0;
    std::size_t partial_removed = 0;    // copies a crash interrupted while they were written
    std::vector<std::string> problems;  // entries that are not copies (left alone), read errors
  };

  // Creates `dir` if needed; an error names it.
  static Result<std::unique_ptr<CheckpointDisk>> open(std::filesystem::path dir);
  ~CheckpointDisk();  // finishes what is queued

  // The copies under `dir` (none if it does not exist). Deletes interrupted writes.
  static Loaded load(const std::filesystem::path& dir);
  // The file of a copy, relative to the dir: "00000005000000a1/40/7".
  static std::filesystem::path relative_path(TaskId task, std::uint64_t step);

  // `written`, if given, is called on the disk's thread once the copy is on disk (synced and
  // renamed), or its write failed (logged), or it was skipped as already superseded (false).
  void write(TaskId task, std::uint64_t step, State state,
             std::function<void(bool on_disk)> written = {});
  void commit(std::uint64_t job, std::uint64_t step);  // deletes the job's steps below `step`
  void discard_after(std::uint64_t job, std::uint64_t step);
  void drop_job(std::uint64_t job);
  void clear();
  // Waits until everything asked for so far is done.
  void flush();

  const std::filesystem::path& dir() const { return dir_; }
  // Writes and deletions that failed (each is logged).
  std::uint64_t failures() const { return failures_.load(); }

 private:
  explicit CheckpointDisk(std::filesystem::path dir);
  void post(std::function<void()> work);
  // Deletes the job's step directories for which `doomed(step)` holds.
  void remove_steps(std::uint64_t job, const std::function<bool(std::uint64_t)>& doomed);
  void failed(const std::string& what);

  std::filesystem::path dir_;
  std::atomic<std::uint64_t> failures_{0};
  std::mutex mutex_;
  std::map<std::uint64_t, std::uint64_t> committed_;  // job -> latest step committed (asked for)
  asio::thread_pool pool_{1};
};

}  // namespace drift
