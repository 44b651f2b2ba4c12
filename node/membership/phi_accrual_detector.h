// Phi accrual failure detector (Hayashibara 2004, Akka's variant) for one monitored peer. Pure:
// time comes in as arguments, no clock reads. Not thread-safe; one instance per peer.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>

namespace drift {

// Models heartbeat inter-arrival times as a normal distribution over a sliding window, with the
// std dev clamped to >= min_std_dev and the mean raised by acceptable_pause. phi(now) is
// -log10(P(a heartbeat arrives later than now)); a peer is suspicious once phi >= threshold.
class PhiAccrualDetector {
 public:
  struct Params {
    double threshold = 8.0;
    std::chrono::milliseconds min_std_dev{50};
    std::chrono::milliseconds acceptable_pause{200};
    std::chrono::milliseconds first_interval{100};  // assumed interval until samples arrive
    std::size_t window = 200;                       // inter-arrival samples kept
  };
  using TimePoint = std::chrono::steady_clock::time_point;

  explicit PhiAccrualDetector(Params p);

  // Records a heartbeat. The first one only starts the clock; a heartbeat earlier than the last
  // one is ignored.
  void heartbeat(TimePoint now);
  // Other news that the peer was alive at `now` (its refutation of a suspicion, gossiped): the
  // clock restarts from it, but it is no arrival — the intervals learned stay as they were.
  void alive_at(TimePoint now);
  double phi(TimePoint now) const;  // 0 before the first heartbeat; finite, non-decreasing in now
  bool suspicious(TimePoint now) const;  // phi >= threshold

  const Params& params() const { return params_; }
  bool started() const { return started_; }
  // Intervals measured between real heartbeats so far (the bootstrap's assumed ones not counted).
  std::size_t intervals_learned() const { return learned_; }
  TimePoint last_heartbeat() const { return last_; }

 private:
  void add_interval(double ms);
  void rebuild_sums();
  double mean_ms() const;
  double std_dev_ms() const;

  Params params_;
  bool started_ = false;
  TimePoint last_{};
  std::deque<double> intervals_ms_;
  double sum_ = 0;     // of intervals_ms_
  double sum_sq_ = 0;  // of their squares
  std::size_t since_rebuild_ = 0;
  std::size_t learned_ = 0;
};

}  // namespace drift
