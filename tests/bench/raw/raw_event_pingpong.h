// Raw baseline for (b), the one drift is held to: a ping-pong between two Asio event loops (one
// thread and one io_context each, async reads and writes, Nagle off) over a loopback TCP
// connection, i.e. the least an Asio daemon does to exchange a message. Messages are framed the
// way drift frames them: a 12-byte header carrying the body's length, then the body; the
// receiver reads the header, then the body, then writes the frame back (Asio's chat example).
// drift_bench passes the size of drift's own frame for the payload, so both sides move the same
// bytes. The pinger times `rounds` round trips after a few unmeasured ones; the figures are for
// `payload_bytes`, as drift's pingpong reports them. `cpus` (first: the pinger, second: the
// echoer; -1: anywhere) pins the two ends (cpu_pinning.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include <drift/status.h>
#include "tests/bench/raw/raw_pingpong.h"

namespace drift::bench {

Result<PingPongTiming> raw_event_pingpong(std::size_t frame_bytes, std::size_t payload_bytes,
                                          std::uint64_t rounds,
                                          std::pair<int, int> cpus = {-1, -1});

}  // namespace drift::bench
