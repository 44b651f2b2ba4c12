// Handler reports that wait while the worker is still busy (docs/architecture.md §3.2). A task's
// report (its contributions to the step's reduction, its load, its CPU time) is on nobody's
// critical path while other handlers of the same worker are queued or running and still
// reporting: the root cannot complete a step before the last task contributes. So a plain report
// waits here until the worker runs out of handlers, and then all go to the daemon in one write;
// the daemon passes their contributions on to the root together, and the root (maybe on a PC
// whose owner is back) wakes once for a step's burst of the worker's tasks instead of once per
// task. Bounds: what waits goes once no new report came for kQuiet (a long handler of one task
// does not hold back the others' contributions by more), once the first has waited kMaxAge
// (handlers that never run out do not starve the daemon's load meter), and when kMaxHeld wait.
// Reports that change a task's fate (finished, failed, a checkpoint) and every frame other than a
// task's message go out at once, after what is held (in order). I/O thread only.
#pragma once

#include <asio.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "protocol/out_frame.h"

namespace drift {

class EffectsHold {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::microseconds kQuiet{1000};
  static constexpr std::chrono::milliseconds kMaxAge{20};
  static constexpr std::size_t kMaxHeld = 2048;
  using Send = std::function<void(std::vector<Frame> frames)>;

  EffectsHold(asio::io_context& io, Send send);
  ~EffectsHold();

  // A handler was posted to the pool.
  void posted() { ++pending_; }
  // A posted handler is over (called before its effects are handed on, so that its own report
  // waits only for the others).
  void done() {
    if (pending_ > 0) --pending_;
  }
  // What waits goes if no handler is under way (after a finished handler's effects went on).
  void release_if_idle();
  // Takes `report` if the worker is busy, else leaves it to the caller; true if taken.
  bool hold(Frame& report);
  // What waits, in order, into `out` (before a frame that must not overtake it).
  void take(std::vector<Frame>& out);
  bool empty() const { return held_.empty(); }

 private:
  void arm(Clock::time_point at);
  void on_timer();
  void send_held();

  asio::steady_timer timer_;
  Send send_;
  std::size_t pending_ = 0;
  std::vector<Frame> held_;
  Clock::time_point first_;  // when the oldest report held came
  Clock::time_point last_;   // when the newest did
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);  // a timer's late completion
};

}  // namespace drift
