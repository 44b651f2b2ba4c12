// The load of programs that are not drift's (DESIGN.md §8, §9): the machine's 1-minute load
// average minus this process's own runnable threads, per core, as the load meter divides
// capacity by it (seed 000). Reads /proc/self/task; the arithmetic and parsing are pure.
#pragma once

#include <cstdint>
#include <string_view>

namespace drift {

// max(0, load_average - own_runnable) / cores (cores 0 counts as 1).
double external_load_per_core(double load_average, std::uint32_t own_runnable, std::uint32_t cores);
// The state letter of a /proc/<pid>/task/<tid>/stat line ('R' = runnable), found after the last
// ')' since the command name may hold spaces and parentheses; '\0' if the line is malformed.
char stat_state(std::string_view stat_line);
// Threads of this process in state R right now; 0 if /proc/self/task is unreadable.
std::uint32_t count_own_runnable_threads();

}  // namespace drift
