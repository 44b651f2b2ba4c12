// The share of its CPU quota a node really got (docs/architecture.md §8.1). Under a quota the
// machine's load average says little: with other drift daemons on the same machine, each within
// its own quota, a burst of their runnable threads (a migration storm, every worker computing)
// pushed it past the free cores and every node divided its capacity by up to 20 at once, and the
// balancer moved hundreds of tasks on it. What the node got is measured instead: over a second in
// which one of its workers' threads wanted the CPU (ran or waited to run, from
// /proc/PID/task/TID/schedstat, for 90 % of it at least), the CPU time the daemon and its workers
// had (/proc/PID/stat, exited threads included) against the quota's worth of that time (no more
// than those busy threads could use). Got it all (within 15 %): no external load; got a fraction
// f: external load 1/f - 1, as the load meter divides capacity by 1 + load. Waiting in a throttled
// period counts as wanting, so the node's own throttling is never someone else's load. Each
// thread is judged by itself: summed, the waits of a worker's I/O thread woken by messages in
// throttled periods made a node that sat idle a third of every step, waiting for a slower
// neighbour, look as if it wanted the CPU all the time and got a third less than its quota — the
// less a node held, the slower it looked (real-CPU testbed, equal quotas: the busiest node alone
// measured no shortfall, the others 0.2-0.6, and 109 tasks moved). While the workers wait for
// messages or are idle there is nothing to judge by, and the last measurement fades slowly (0
// before the first: the load average, which the caller uses until the node has workers, counts
// every other daemon on the machine). The arithmetic is pure; CpuShareSampler reads /proc.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <vector>

namespace drift {

// The external load (per core, as the meter divides by 1 + it) from one interval of `wall_s`:
// `node_cpu_s` the daemon's and its workers' CPU time, `threads_wanted_s` each worker thread's
// CPU time plus wait in it, `quota` the cores the node may use. None when no thread wanted the
// CPU for 90 % of the interval (nothing to judge by).
std::optional<double> quota_shortfall_load(double node_cpu_s,
                                           std::span<const double> threads_wanted_s, double wall_s,
                                           double quota);

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
    std::map<int, double> thread_wanted_s;  // each worker thread's CPU + wait, by thread id
  };
  // Each thread's wanted seconds between `last` and `now` (a thread new in `now` counts whole).
  static std::vector<double> wanted_between(const Totals& last, const Totals& now);
  static Totals read(const std::vector<int>& workers);

  std::optional<double> last_at_;
  Totals last_;
  std::vector<int> last_workers_;
  std::optional<double> load_;
};

}  // namespace drift
