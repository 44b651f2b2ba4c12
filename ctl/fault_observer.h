// Watches a running cluster for `driftctl fault run`: one thread per daemon asks it for status
// every `interval` (one kept connection, re-opened when it fails; stretched for a daemon under a
// small CPU quota, observer_interval) and records every change in
// what that daemon says of each member (state, incarnation), timed in seconds since `t0`, plus
// the daemon's own counters (suspicions, deaths declared) per incarnation. Detection times and
// false suspicions are read off this timeline afterwards (fault_report.h). Thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "ctl/client_connection.h"
#include "protocol/messages.h"

namespace drift::ctl {

struct MemberSighting {
  double t = 0;       // seconds since t0
  int observer = 0;   // the daemon that answered
  int target = 0;     // the member it describes
  MemberState state = MemberState::kAlive;
  std::uint64_t incarnation = 0;
};

// How often to ask a daemon with `cores` of CPU quota (none: no quota) when the others are asked
// every `base`: at most every base, and less often below half a core, so that the asking takes no
// bigger share of a slow daemon's CPU than of a fast one's (0.05 core: 10 x base). Asked every
// 30 ms, a daemon at 0.05 core spent about a third of its quota answering, and a 64 MB move to it
// took 70 s instead of 20.
std::chrono::milliseconds observer_interval(std::chrono::milliseconds base,
                                            std::optional<double> cores);

class FaultObserver {
 public:
  using Clock = std::chrono::steady_clock;
  // nodes[k - 1]: how to reach daemon k; intervals[k - 1]: how often to ask it.
  FaultObserver(std::vector<ConnectOptions> nodes, Clock::time_point t0,
                std::vector<std::chrono::milliseconds> intervals);
  ~FaultObserver();

  void start();
  void stop();

  std::vector<MemberSighting> sightings() const;
  // Whether a daemon other than `target` has shown it in `state` at or after `after_s`.
  bool seen(int target, MemberState state, double after_s) const;
  // Daemon k's own counters, summed over its incarnations (a restart starts them from zero).
  std::map<int, NodeCounters> counters() const;

 private:
  void watch(int k);
  void record(int k, const StatusReply& reply);

  std::vector<ConnectOptions> nodes_;
  Clock::time_point t0_;
  std::vector<std::chrono::milliseconds> intervals_;
  std::atomic<bool> stopping_{false};
  std::vector<std::thread> threads_;
  mutable std::mutex mutex_;
  std::vector<MemberSighting> sightings_;
  std::map<std::pair<int, int>, std::pair<MemberState, std::uint64_t>> last_;  // (obs, target)
  std::map<std::pair<int, std::uint64_t>, NodeCounters> counters_;  // (node, incarnation)
};

}  // namespace drift::ctl
