// The owner-reclaim benchmark (issue 6): on 3 local daemons, node 1 (policy immediate, its owner
// an activity file) runs a ballast job holding `state_bytes` of task state in all; a synthetic
// owner (drift_owner, one CPU-bound thread) starts on node 1's core and touches the file. Measured:
// the time from that touch until node 1 has left available (detected) and until it hosts no task
// (empty), and the owner's work rate while drift vacates and from 2 s after it started, against
// the same owner process run on the same core with node 1 idle, in the same run. Node 1 and the
// owner share one core, nodes 2 and 3 another (two machines' worth of CPU on one host).
#pragma once

#include <cstdint>
#include <filesystem>
#include <utility>
#include <vector>

#include <drift/status.h>

namespace drift::bench {

struct OwnerBenchConfig {
  std::uint64_t state_bytes = 10u << 20;  // the job's task state in all, on node 1
  std::uint32_t tasks = 4;
  std::uint64_t work_us = 2000;  // busy microseconds per task per step
  double owner_s = 6;            // how long the owner runs
  double window_s = 0.25;        // its report window
  std::uint16_t base_port = 17960;
  std::filesystem::path base_config;  // conf/local.conf
  std::filesystem::path owner_exe;    // drift_owner
};

// (end of window in s since the owner started, work units per second) as drift_owner prints.
using RateWindows = std::vector<std::pair<double, double>>;

struct OwnerBenchResult {
  std::uint64_t state_bytes = 0;
  double detect_s = 0;       // touch -> node 1 no longer available
  double empty_s = 0;        // touch -> node 1 hosts no task
  double unloaded_rate = 0;  // median window rate, node 1 idle (before and after the job)
  double during_rate = 0;    // mean rate over the windows that began before `empty_s`
  double after_2s_rate = 0;  // mean rate over windows starting at 2 s or later
  std::uint32_t cores = 0;   // 2 when pinned
  double load_average = 0;   // the host's 1-minute load average when the job started
};

// Mean rate of the windows that start at or after `from_s` and end by `to_s`; 0 if none.
double mean_rate(const RateWindows& windows, double window_s, double from_s, double to_s);
// drift_owner's output parsed; malformed lines are an error naming them.
Result<RateWindows> parse_rate_windows(const std::string& text);

Result<OwnerBenchResult> run_owner_bench(const OwnerBenchConfig& config);

}  // namespace drift::bench
