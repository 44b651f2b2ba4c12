// A reading of the machine taken at most once per period (docs/architecture.md §8.1): the
// membership round asks for the node's load ten times a second and every status request asks
// again, but the load average changes every five seconds and free memory slowly; a Sampled keeps
// the last reading for `period` and reads again only when it is older. Network thread only.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <utility>

namespace drift {

template <class T>
class Sampled {
 public:
  using Clock = std::chrono::steady_clock;

  Sampled(Clock::duration period, std::function<T()> read)
      : period_(period), read_(std::move(read)) {}

  // The last reading if it is younger than the period at `now`, else a new one.
  const T& get(Clock::time_point now = Clock::now()) {
    if (!value_ || now - read_at_ >= period_) {
      value_ = read_();
      read_at_ = now;
    }
    return *value_;
  }

 private:
  Clock::duration period_;
  std::function<T()> read_;
  std::optional<T> value_;
  Clock::time_point read_at_{};
};

}  // namespace drift
