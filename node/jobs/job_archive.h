// The ends of the jobs rooted here (docs/architecture.md §6.6): a finished, failed or cancelled
// job's entry and its end (the JobResult or JobFailed its client got, or would have) stay for
// `keep` after the end, so that `driftctl jobs`, `result` and `attach` find them when their
// submitter comes back. Bounded: at most kMaxKept jobs and kMaxBytes of results, the oldest
// dropped first. Pure: time comes in as arguments; the network thread owns it.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <variant>
#include <vector>

#include "protocol/messages.h"

namespace drift {

class JobArchive {
 public:
  using Clock = std::chrono::steady_clock;
  using End = std::variant<JobResult, JobFailed>;
  struct Kept {
    JobEntry entry;
    End end;
    Clock::time_point ended;
    std::size_t bytes = 0;
  };
  static constexpr std::size_t kMaxKept = 1000;
  static constexpr std::size_t kMaxBytes = std::size_t{64} << 20;

  explicit JobArchive(std::chrono::seconds keep) : keep_(keep) {}

  void add(JobEntry entry, End end, Clock::time_point now);
  const Kept* find(std::uint64_t job) const;
  // Drops the job's end (driftctl result --forget); false if it was not kept.
  bool forget(std::uint64_t job);
  // Called with each job whose end is dropped (forgotten, replaced, expired, over the bounds):
  // the copy on disk goes too (job_end_disk.h).
  void set_on_drop(std::function<void(std::uint64_t)> on_drop) { on_drop_ = std::move(on_drop); }
  // The kept jobs, oldest end first, with ended_ago_s as of `now`; drops those older than keep.
  std::vector<JobEntry> entries(Clock::time_point now);
  std::size_t size() const { return kept_.size(); }

 private:
  void expire(Clock::time_point now);
  void drop_oldest();

  std::chrono::seconds keep_;
  std::map<std::uint64_t, Kept> kept_;
  std::deque<std::uint64_t> order_;  // by end; may name forgotten jobs
  std::size_t bytes_ = 0;
  std::function<void(std::uint64_t)> on_drop_;
};

}  // namespace drift
