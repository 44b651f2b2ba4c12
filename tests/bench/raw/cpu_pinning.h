// CPU pinning for table (b). On one machine the kernel sometimes hands a message from one end of
// a ping-pong to the other on the same core (a few µs) and sometimes wakes the other core (tens
// of µs in a VM); which of the two a run gets decides its round trip far more than anything the
// software does, and drift and its baseline can get different ones in the same run. So table (b)
// gives each end its own core, as two machines would: node 1 and the raw pinger on one, node 2
// and the raw echoer on the other.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>
#include <utility>

#include <drift/status.h>

namespace drift::bench {

// Two distinct cores this process may run on, if it has at least two.
std::optional<std::pair<int, int>> two_cores();
// Pins every thread of process `pid` to `cpu` (threads it starts later inherit that);
// cpu = -1 lets them run anywhere this process may.
Status pin_process(pid_t pid, int cpu);
// The calling thread only; cpu = -1 undoes it as above.
Status pin_this_thread(int cpu);

}  // namespace drift::bench
