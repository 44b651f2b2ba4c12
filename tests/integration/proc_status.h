// A field of /proc/PID/status for the tests that watch a daemon's memory and threads, and whether
// its resident size says anything in this build (not in a sanitized one: sanitized_build.h).
#pragma once

#include <sys/types.h>

#include <string_view>

#include "tests/integration/sanitized_build.h"

namespace drift::test {

// "VmRSS:" or "Threads:" of a process, in its unit (kB for VmRSS); -1 if there is none (the
// process is gone).
long proc_status_field(pid_t pid, std::string_view field);

inline constexpr bool kRssIsMeaningful = !kSanitizedBuild;

}  // namespace drift::test
