// The kernel's scheduler statistics, parsed (docs/architecture.md §5.1, §8.1): a thread's
// /proc/.../schedstat (time on a CPU, time runnable but waiting for one) and a cgroup's throttled
// time (cpu.stat). Pure parsers, plus a read of the calling thread's own line; nothing where the
// kernel keeps no schedstats.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

namespace drift {

struct ThreadTime {
  std::chrono::nanoseconds ran{0};     // on a CPU
  std::chrono::nanoseconds waited{0};  // runnable, waiting for a CPU (throttling included)
};

// "123 456 7\n" (schedstat: run ns, wait ns, timeslices) -> {123, 456}; nothing if malformed.
std::optional<ThreadTime> parse_schedstat(std::string_view text);
// The throttled time in a cgroup's cpu.stat text: v1 "throttled_time N" (ns), v2
// "throttled_usec N"; nothing if neither is there.
std::optional<std::chrono::nanoseconds> parse_throttled(std::string_view cpu_stat);

std::optional<ThreadTime> read_thread_time();  // of the calling thread

}  // namespace drift
