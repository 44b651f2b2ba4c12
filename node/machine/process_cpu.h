// CPU time of a whole process, exited threads included: utime + stime of /proc/PID/stat
// (docs/architecture.md §8.1, §11.2). The node's share of its quota adds up its daemon's and its
// workers'; a worker that has not said hello yet is given more time while it is using CPU
// (starting under a small quota) and ended when it is not (it hangs).
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace drift {

// Seconds from the text of a /proc/PID/stat file; none if it is malformed. The command name
// (field 2) may hold spaces and parentheses: the fields are counted from its last ')'.
std::optional<double> parse_process_cpu(std::string_view stat, long ticks_per_second);

// The process's CPU seconds now; none if it is gone or /proc cannot be read.
std::optional<double> process_cpu_seconds(int pid);

// The node's CPU seconds now: this process's (the daemon) and its `workers'`, those that cannot
// be read counted as 0.
double node_cpu_seconds(const std::vector<int>& workers);

}  // namespace drift
