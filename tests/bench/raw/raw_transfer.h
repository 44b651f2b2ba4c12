// Raw baseline for migration (a): `bytes` bytes sent once over an established loopback TCP
// connection with blocking Asio writes, read by another thread into a preallocated buffer, which
// then answers one byte. The time runs from the first write to that answer, the same span as a
// migration's "freeze to resumed at the destination". The reading thread is started (and about to
// block in its read) before the clock starts, so thread creation is not timed.
#pragma once

#include <cstddef>

#include <drift/status.h>
#include "tests/bench/raw/loopback_pair.h"

namespace drift::bench {

// Seconds for one transfer of `bytes` bytes.
Result<double> raw_transfer_seconds(LoopbackPair& pair, std::size_t bytes);

}  // namespace drift::bench
