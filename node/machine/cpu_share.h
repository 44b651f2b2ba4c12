// The share of its CPU quota a node really got (docs/architecture.md §8.1). Under a quota the
// machine's load average says little: with other drift daemons on the same machine, each within
// its own quota, a burst of their runnable threads (a migration storm, every worker computing)
// pushed it past the free cores and every node divided its capacity by up to 20 at once, and the
// balancer moved hundreds of tasks on it. What the node got is measured instead: over a second in
// which its workers wanted the CPU (90 % of it at least; their threads' CPU time plus run-queue
// wait, from /proc/PID/task/TID/schedstat, cover the interval), the CPU time the daemon and its
// workers had
// (/proc/PID/stat, exited threads included)
// against the quota's worth of that time (no more than the workers' threads could use). Got it
// all (within 15 %): no external load; got a fraction f: external load 1/f - 1, as the load meter
// divides capacity by 1 + load. Waiting in
// a throttled period counts as wanting, so the node's own throttling is never someone else's
// load. While the workers wait for messages or are idle there is nothing to judge by, and the last
// measurement fades slowly (0 before the first: the load average, which the caller uses until the
// node has workers, counts every other daemon on the machine). The arithmetic is pure;
// CpuShareSampler reads /proc.
#pragma once

#include <optional>
#include <vector>

namespace drift {

// CPU and run-queue wait seconds, summed over a process's threads.
struct ThreadTimes {
  double cpu_s = 0;
  double wait_s = 0;
};

// Fields 1 and 2 of a /proc/.../schedstat line ("<cpu ns> <wait ns> <slices>"); none if malformed.
std::optional<ThreadTimes> parse_schedstat(const char* text);

// The external load (per core, as the meter divides by 1 + it) from one interval of `wall_s`:
// `node_cpu_s` the daemon's and its workers' CPU time, `workers_wanted_s` their workers' CPU time
// plus wait, `quota` the cores the node may use. None when the workers wanted the CPU for less
// than 90 % of the interval (nothing to judge by).
std::optional<double> quota_shortfall_load(double node_cpu_s, double workers_wanted_s,
                                           double wall_s, double quota);

// The sampler's external load after one interval its workers lived through: `judged` that
// interval's (quota_shortfall_load), none when they did not want the CPU enough to judge by;
// `last` the load before it, none if there was none.
std::optional<double> next_share_load(std::optional<double> last, std::optional<double> judged);

class CpuShareSampler {
 public:
  // The external load measured over intervals of at least a second (quota_shortfall_load),
  // smoothed (half the newest), for this process and its `workers`: the last one measured,
  // fading by a fifth a second while the workers wait for messages or are idle (0 if they have
  // done nothing else yet); none before the first interval with workers. Network thread only.
  std::optional<double> sample(const std::vector<int>& workers, double now_s, double quota);

 private:
  struct Totals {
    double node_cpu_s = 0;
    double workers_wanted_s = 0;
  };
  static Totals read(const std::vector<int>& workers);

  std::optional<double> last_at_;
  Totals last_;
  std::vector<int> last_workers_;
  std::optional<double> load_;
};

}  // namespace drift
