// Busy work for benchmark apps: spin on integer arithmetic for a given wall time, so a test can
// stretch a run (or give a task a step time) without sleeping. The arithmetic's result is
// returned so the compiler cannot drop the loop; it never influences an app's result.
#pragma once

#include <chrono>
#include <cstdint>

namespace drift::apps {

// Returns after at least `duration` of steady_clock time; 0 returns at once.
std::uint64_t spin_for(std::chrono::microseconds duration);

}  // namespace drift::apps
