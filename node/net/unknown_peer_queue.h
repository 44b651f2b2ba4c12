// Messages for a node this one has not heard of yet (docs/architecture.md §3.3): a job's root may
// place tasks on members that have not all met each other — their first halo messages would be
// dropped and the job stall. They wait here, bounded, until the node joins (then they go in
// order) or for at most max_age (then they are dropped and said). The daemon also holds task
// messages for a node it knows as dead, briefly: that node may be back already as a new
// incarnation that another member (a job's root placing tasks there) has met and this one has not
// heard of yet; if it was not, recovery takes over as before. Pure; network thread only.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <vector>

#include "protocol/messages.h"

namespace drift {

class UnknownPeerQueue {
 public:
  using Clock = std::chrono::steady_clock;
  struct Limits {
    std::size_t messages_per_node = 4096;
    std::size_t bytes_per_node = 64u << 20;
    std::size_t nodes = 64;
    Clock::duration max_age = std::chrono::seconds(10);
  };
  struct Expired {
    std::uint32_t node = 0;
    std::size_t messages = 0;
  };

  UnknownPeerQueue() = default;
  explicit UnknownPeerQueue(Limits limits) : limits_(limits) {}

  // Keeps `msg` (of about `bytes` bytes) for `node`; false when a bound is reached (not kept).
  // `max_age` (if shorter than the limit's) bounds how long this node's messages wait, from the
  // first one held.
  bool hold(std::uint32_t node, WireMessage msg, std::size_t bytes, Clock::time_point now,
            std::optional<Clock::duration> max_age = std::nullopt);
  // Everything held for `node`, oldest first; it is no longer held.
  std::vector<WireMessage> take(std::uint32_t node);
  // Drops what waited longer than max_age: per node, how many.
  std::vector<Expired> expire(Clock::time_point now);
  std::size_t held() const;

 private:
  struct Held {
    Clock::time_point since;
    Clock::duration max_age{};
    std::size_t bytes = 0;
    std::deque<WireMessage> messages;
  };
  Limits limits_;
  std::map<std::uint32_t, Held> nodes_;
};

}  // namespace drift
