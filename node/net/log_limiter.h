// At most `burst` log lines per `window`, for what a peer can make the daemon log at will
// (refused frames, handshakes, forged senders): a flood of garbage must not become a flood of
// lines. allow() says whether this line may go out; suppressed() how many did not since the
// last one that did, so that line can say so. Not thread-safe.
#pragma once

#include <chrono>
#include <cstdint>

namespace drift {

class LogLimiter {
 public:
  using Clock = std::chrono::steady_clock;
  LogLimiter(int burst, std::chrono::milliseconds window) : burst_(burst), window_(window) {}

  bool allow(Clock::time_point now) {
    if (now - window_start_ >= window_) {
      window_start_ = now;
      used_ = 0;
    }
    if (used_ >= burst_) {
      ++suppressed_;
      return false;
    }
    ++used_;
    last_suppressed_ = suppressed_;
    suppressed_ = 0;
    return true;
  }
  // Lines held back before the last one allowed.
  std::uint64_t suppressed() const { return last_suppressed_; }

 private:
  int burst_;
  std::chrono::milliseconds window_;
  Clock::time_point window_start_{};
  int used_ = 0;
  std::uint64_t suppressed_ = 0;
  std::uint64_t last_suppressed_ = 0;
};

}  // namespace drift
