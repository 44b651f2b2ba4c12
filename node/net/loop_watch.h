// Which piece of work held a network thread, and for how long (docs/architecture.md §5.1): the
// daemon's handlers name themselves with a LoopHold scope ("MigrationChunk from a peer",
// "checkpoint bytes from a worker"); the outermost scope's time is measured, and the slowest
// since the last take_slowest() is remembered, so the membership round that sees its loop was
// late can say what held it. Per thread (every daemon has its own network thread); a scope costs
// two clock reads.
#pragma once

#include <chrono>
#include <string>

namespace drift {

class LoopHold {
 public:
  // `what` must outlive the scope (a string literal, or a name the caller keeps).
  explicit LoopHold(const char* what);
  ~LoopHold();
  LoopHold(const LoopHold&) = delete;
  LoopHold& operator=(const LoopHold&) = delete;

 private:
  bool outermost_;
  const char* what_ = nullptr;
  std::chrono::steady_clock::time_point began_;
};

struct SlowestHold {
  const char* what = nullptr;  // null: no scope ended since the last take
  std::chrono::microseconds took{0};
};

// The slowest outermost scope this thread ended since the previous call; resets it.
SlowestHold take_slowest_hold();

// "MigrationChunk from a peer for 412 ms", or "" if nothing was measured.
std::string describe(const SlowestHold& hold);

}  // namespace drift
