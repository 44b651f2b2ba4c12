// The load of programs that are not drift's (docs/architecture.md §8, §9): the machine's 1-minute load
// average minus drift's own runnable threads — the daemon's and its workers' — per core, as the
// load meter divides capacity by it (seed 000) and the owner policy reads it. Reads
// /proc/PID/task; the arithmetic and parsing are pure.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace drift {

// max(0, load_average - own_runnable) / cores (cores 0 counts as 1).
double external_load_per_core(double load_average, std::uint32_t own_runnable, std::uint32_t cores);
// A node under a CPU quota of `quota` cores shares the machine's `cores` with programs using
// `per_core` x cores of them: it is slowed only if they leave it less than its quota, so other
// daemons on the same machine, each within its own quota, are no load to it. Returns the external
// load per core the meter divides its capacity by: 0 while the free cores cover the quota, else
// quota / free - 1 (the node gets the free cores instead of its quota).
double quota_external_load(double per_core, std::uint32_t cores, double quota);
// The state letter of a /proc/<pid>/task/<tid>/stat line ('R' = runnable), found after the last
// ')' since the command name may hold spaces and parentheses; '\0' if the line is malformed.
char stat_state(std::string_view stat_line);
// Threads of this process and of `children` (its workers) in state R right now; a process whose
// /proc/PID/task is unreadable (gone) counts 0.
std::uint32_t count_own_runnable_threads(const std::vector<int>& children = {});

}  // namespace drift
