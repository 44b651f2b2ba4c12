// The CPU a daemon runs on (docs/architecture.md §8.1), setting `node.cpu`. A node whose cgroup
// allows it less than one core is bound, with the workers it starts, to a single CPU: the kernel
// hands out a quota in slices per CPU, so a worker computing on one CPU took the whole period's
// quota there while the daemon's network thread, runnable on the other, waited for it period
// after period (at 0.2 core: 8 ms of work in 291 ms, event-loop stalls of 300 ms). On one CPU the
// network thread's priority over the SCHED_IDLE workers holds inside the quota too. The choice is
// pure; pin_this_process() calls sched_setaffinity.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "drift/status.h"

namespace drift {

// `node.cpu`: auto (one CPU under a quota below one core), any (wherever the kernel puts us), or
// a CPU's number.
struct CpuSetting {
  enum class Kind { kAuto, kAny, kFixed } kind = Kind::kAuto;
  int cpu = 0;  // kFixed
};
std::optional<CpuSetting> parse_cpu_setting(std::string_view text);

// The CPU to bind to, none to stay unbound. `allowed`: the CPUs this process may run on now
// (ascending); `quota`: the cores its cgroup allows, none without a quota; auto takes the
// (node_id - 1)-th allowed CPU, round robin, so daemons of one machine spread over its CPUs.
// An error names a fixed CPU that is not allowed.
Result<std::optional<int>> choose_cpu(const CpuSetting& setting, std::optional<double> quota,
                                      const std::vector<int>& allowed, std::uint32_t node_id);

// Binds the calling thread to `cpu`: at start-up, before any other thread, it binds the
// daemon's threads and the workers they start. The CPUs allowed now, ascending.
std::vector<int> allowed_cpus();
Status pin_this_process(int cpu);

}  // namespace drift
