// Forwarding pointers left behind by tasks that moved away (docs/architecture.md §7). A pointer forwards
// late messages to the task's next place and remembers which nodes it already told of the move,
// so each sender's node gets one location update per move. Pointers are an optimisation, not a
// correctness requirement — a node without one asks the task's home — so they expire once unused
// for a while, which keeps memory bounded in a long run. Pure: time is an argument.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <set>

#include "protocol/wire_types.h"

namespace drift {

struct ForwardingPointer {
  std::uint32_t dest = 0;
  std::uint64_t epoch = 0;  // the task's move count on arrival at dest
  std::chrono::steady_clock::time_point last_used;
  std::uint64_t forwarded = 0;
  std::set<std::uint32_t> told;  // nodes already sent a location update for this epoch
};

class ForwardingTable {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;

  // A newer pointer replaces an older one; an older one is ignored.
  void add(TaskId task, std::uint32_t dest, std::uint64_t epoch, TimePoint now);
  void remove(TaskId task);
  ForwardingPointer* find(TaskId task);
  // Counts one forwarded message; true if `sender_node` should now be told where the task is.
  bool forwarded(TaskId task, std::uint32_t sender_node, TimePoint now);
  // Drops pointers unused for `ttl`; returns how many.
  std::size_t expire(TimePoint now, std::chrono::milliseconds ttl);
  void drop_job(std::uint64_t job);
  std::size_t size() const { return pointers_.size(); }
  const std::map<TaskId, ForwardingPointer>& all() const { return pointers_; }

 private:
  std::map<TaskId, ForwardingPointer> pointers_;
};

}  // namespace drift
