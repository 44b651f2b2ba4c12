// Load on its way here that no offer has announced yet (docs/architecture.md §8 phase 5): a balancing
// sender reserves a task's load at its destination the moment it decides the move, because the
// offer itself waits until the sender's worker reaches the task (seconds, on a slow machine in a
// long step). Counted here, the load is in this node's advertised load at once, so the group's
// other senders plan against it instead of filling this node past its share. A reservation ends
// when the offer arrives (the offer then counts, or is refused), when the sender gives the move
// up or dies, or after `lifetime`, so a lost one cannot skew the load for ever. Pure: time comes
// in as an argument. Not thread-safe (the network thread owns it).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>

#include "protocol/wire_types.h"

namespace drift {

class LoadReservations {
 public:
  using Clock = std::chrono::steady_clock;
  explicit LoadReservations(Clock::duration lifetime) : lifetime_(lifetime) {}

  // Node `from` decided to move `task` here as its move number `epoch`, with `load`. A newer
  // reservation of the same task replaces an older one; an older or a repeated one is ignored.
  void reserve(std::uint32_t from, TaskId task, std::uint64_t epoch, double load,
               Clock::time_point now);
  // The move `epoch` of `task` was offered or given up: its reservation (and older) ends.
  void release(TaskId task, std::uint64_t epoch);
  // Node `from` died: its reservations end.
  void drop_from(std::uint32_t from);
  void drop_job(std::uint64_t job);
  // The load reserved here and not expired at `now`.
  double load(Clock::time_point now) const;
  std::size_t size() const { return book_.size(); }

 private:
  struct Reservation {
    std::uint32_t from = 0;
    std::uint64_t epoch = 0;
    double load = 0;
    Clock::time_point made;
  };
  void expire(Clock::time_point now);

  Clock::duration lifetime_;
  std::map<TaskId, Reservation> book_;
};

}  // namespace drift
