// Where a stalled network thread's time went (docs/architecture.md §5.1): the kernel's scheduler
// statistics of this thread (/proc/thread-self/schedstat: time on a CPU, time runnable but waiting
// for one) and the throttled time of the node's cgroup (cpu.stat), both parsed by
// machine/schedstat.h, read once per membership round with plain system calls (proc_file.h). A
// round that comes late subtracts the previous reading and can say "ran 80 ms, waited 900 ms for
// a CPU (the cgroup was throttled for 850 ms)": the thread was busy, or the quota held it, or it
// slept (the timer itself came late). Parts the machine cannot tell (a kernel without
// schedstats, no cpu controller) are left out.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "node/machine/schedstat.h"

namespace drift {

// A running account of one thread (the one that calls sample()) and its process's cgroup.
class StallAccount {
 public:
  // `cgroup_root`: the cgroup filesystem's mount point.
  explicit StallAccount(std::string cgroup_root = "/sys/fs/cgroup");

  // Reads both now; returns what changed since the previous sample, as a phrase: "ran 80 ms,
  // waited 900 ms for a CPU, cgroup throttled 850 ms", parts the machine cannot tell left out;
  // "" on the first sample or when nothing could be read.
  std::string sample();

 private:
  std::optional<std::chrono::nanoseconds> read_throttled() const;

  std::string cpu_stat_;  // the cgroup's cpu.stat file; empty: none
  std::optional<ThreadTime> last_thread_;
  std::optional<std::chrono::nanoseconds> last_throttled_;
};

}  // namespace drift
