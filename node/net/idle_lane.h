// Bulk work that waits until the network thread has nothing else to do (docs/architecture.md
// §5.1). A connection that takes in or sends a large body (a state chunk, a checkpoint piece)
// does it in steps of at most kBulkStep bytes and queues the next step here instead of posting
// it to the event loop, and the loop (run_with_idle_lane) runs one step only when no handler is
// ready. A timer, a heartbeat's answer or a probe then waits behind at most one step, not behind
// the megabytes a slow node takes seconds to decrypt and copy. Network thread only.
#pragma once

#include <asio.hpp>

#include <cstddef>
#include <deque>
#include <functional>

namespace drift {

class IdleLane {
 public:
  // What one step of bulk work may take in or send: at 0.1 core, a fraction of a heartbeat.
  static constexpr std::size_t kBulkStep = 256u << 10;

  void post(std::function<void()> step) { steps_.push_back(std::move(step)); }
  bool empty() const { return steps_.empty(); }
  std::size_t size() const { return steps_.size(); }
  // Runs the oldest step; false if there was none.
  bool run_one();
  void clear() { steps_.clear(); }

 private:
  std::deque<std::function<void()>> steps_;
};

// Runs `io` until it is stopped or out of work, as io.run() would, but with every ready handler
// before each step of `lane`.
void run_with_idle_lane(asio::io_context& io, IdleLane& lane);

// Posts `step` to `lane`, or to `executor` as an ordinary handler if there is no lane (a
// connection outside a daemon's network thread: the heartbeat thread's, a test's).
template <class Executor>
void post_bulk(IdleLane* lane, const Executor& executor, std::function<void()> step) {
  if (lane) return lane->post(std::move(step));
  asio::post(executor, std::move(step));
}

}  // namespace drift
