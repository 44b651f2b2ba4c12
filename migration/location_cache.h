// Where each task lives, as far as this node knows (docs/architecture.md §7). Entries carry the task's move
// count (epoch); an update only replaces an entry with an older epoch, so late or reordered
// location updates can never point a sender backwards. Pure; network thread only.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "protocol/wire_types.h"

namespace drift {

struct Location {
  std::uint32_t node = 0;
  std::uint64_t epoch = 0;
};

class LocationCache {
 public:
  // The job's initial placement: task i on placement[i] at `epoch` (0 at the start; after a
  // rollback, the new generation's first epoch, generation_epoch()). Keeps newer entries.
  void set_job(std::uint64_t job, const std::vector<std::uint32_t>& placement,
               std::uint64_t epoch = 0);
  void drop_job(std::uint64_t job);
  // The job's home (its root) when it is no longer the node its id names: the root died and its
  // deputy took the job over (docs/architecture.md §9).
  void set_home(std::uint64_t job, std::uint32_t node);
  std::uint32_t home(std::uint64_t job) const;
  // True if the entry changed (the update was newer than what we knew).
  bool update(TaskId task, std::uint32_t node, std::uint64_t epoch);
  std::optional<Location> lookup(TaskId task) const;
  // Every known task of a job with its location (for the root's reduction fan-out).
  std::map<std::uint32_t, Location> job(std::uint64_t job) const;

 private:
  std::map<std::uint64_t, std::map<std::uint32_t, Location>> jobs_;
  std::map<std::uint64_t, std::uint32_t> homes_;  // only those that moved
};

// The home of a task is its job's root node, encoded in the job id's upper 32 bits, so any node
// can ask it without knowing the job (unless the root died: LocationCache::home).
inline std::uint32_t home_of(std::uint64_t job) { return static_cast<std::uint32_t>(job >> 32); }

// A task's epoch counts its moves within the job's generation (its rollbacks, docs/architecture.md §9) in the
// low 32 bits, the generation in the high ones: any move of a newer generation is newer.
inline std::uint64_t generation_epoch(std::uint32_t generation) {
  return std::uint64_t{generation} << 32;
}
inline std::uint32_t generation_of_epoch(std::uint64_t epoch) {
  return static_cast<std::uint32_t>(epoch >> 32);
}

}  // namespace drift
