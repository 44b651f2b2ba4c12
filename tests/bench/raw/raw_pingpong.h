// Raw baseline for (b): a ping-pong of `bytes`-byte messages between two threads over an
// established loopback TCP connection with blocking Asio calls. One thread writes a message and
// waits for the echo, `rounds` times; the other echoes each message. A few unmeasured rounds
// warm the connection first. Figures as in the pingpong app: mean round trip, and
// 2 x rounds x bytes / elapsed as throughput.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

#include <drift/status.h>
#include "tests/bench/raw/loopback_pair.h"

namespace drift::bench {

struct PingPongTiming {
  double seconds = 0;  // all measured rounds
  double rtt_us = 0;
  double throughput_mbps = 0;  // MB/s, 1 MB = 10^6 bytes
};

// Makes the figures from a measured run (also used for drift's own pingpong).
PingPongTiming pingpong_timing(double seconds, std::uint64_t rounds, std::size_t bytes);

// `cpus` (first: the pinger, second: the echoer; -1: anywhere) pins the two threads.
Result<PingPongTiming> raw_pingpong(LoopbackPair& pair, std::size_t bytes, std::uint64_t rounds,
                                    std::pair<int, int> cpus = {-1, -1});

}  // namespace drift::bench
