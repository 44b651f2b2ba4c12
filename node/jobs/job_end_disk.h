// Ended jobs on disk (checkpoint.disk, docs/architecture.md §6.6): each end the JobArchive keeps —
// a job's entry and its JobResult or JobFailed — is also a file DIR/<job, 16 hex digits>.end,
// DIR = <node.data_dir>/jobs, written whole and synced (node/service/durable_file.h) and deleted
// when the archive drops the end (forgotten, expired, over its bounds). A daemon that restarts
// loads them back, so `driftctl result` still finds a job that ended before its root went down.
// The file holds the end's wall-clock time, so that jobs.keep_results counts across restarts.
// The daemon writes and deletes them on a thread of their own (save_later, erase_later), in the
// order asked: a hung disk must not stop the network thread, however small the file.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <asio/thread_pool.hpp>

#include <drift/status.h>
#include "node/jobs/job_archive.h"

namespace drift {

class JobEndDisk {
 public:
  using WallClock = std::chrono::system_clock;
  struct Record {
    JobEntry entry;
    JobArchive::End end;
    WallClock::time_point ended;
  };
  struct Loaded {
    std::vector<Record> ends;           // oldest end first
    std::vector<std::string> problems;  // files skipped (and removed), with why
  };
  // A file larger than this is not an end of ours.
  static constexpr std::uint64_t kMaxFileBytes = 16u << 20;

  // Creates DIR if need be.
  static Result<JobEndDisk> open(std::filesystem::path dir);
  // What a previous run left: at most `max_ends` (the newest), each checked.
  Loaded load(std::size_t max_ends) const;
  Status save(const Record& record) const;
  void erase(std::uint64_t job) const;
  // save() and erase() on the writer thread; a failed save is logged there.
  void save_later(Record record) const;
  void erase_later(std::uint64_t job) const;
  const std::filesystem::path& dir() const { return dir_; }

 private:
  explicit JobEndDisk(std::filesystem::path dir)
      : dir_(std::move(dir)), writer_(new asio::thread_pool(1), finish_writing) {}
  // The last holder waits for the ends still queued (~thread_pool would drop them: an end asked
  // for just before a restart would be gone after it).
  static void finish_writing(asio::thread_pool* writer) {
    writer->join();
    delete writer;
  }
  static std::filesystem::path path_of(const std::filesystem::path& dir, std::uint64_t job);
  static Status save_in(const std::filesystem::path& dir, const Record& record);
  static void erase_in(const std::filesystem::path& dir, std::uint64_t job);
  std::filesystem::path path_of(std::uint64_t job) const { return path_of(dir_, job); }

  std::filesystem::path dir_;
  std::shared_ptr<asio::thread_pool> writer_;  // one thread: writes in the order asked
};

}  // namespace drift
