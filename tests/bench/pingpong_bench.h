// Benchmark (b): task-to-task round-trip latency (small messages) and 1 MB throughput with the
// pingpong app (task 0 on node 1, task 1 on node 2, its own handlers timing the rounds), beside
// a raw Asio TCP ping-pong of frames as long as drift's between two event loops
// (raw_event_pingpong.h), in the same run, runs interleaved, medians on both sides; the same
// exchange between two blocking threads is noted beside. Unless `pin` is off, each end has its
// own core for the whole table: node 1 and the raw pinger one, node 2 and the raw echoer another
// (raw/cpu_pinning.h says why). Targets: RTT at most 1.5x raw; throughput at least 70 % of raw.
#pragma once

#include <chrono>
#include <cstdint>

#include "tests/bench/bench_cluster.h"
#include "tests/bench/bench_table.h"
#include "tests/bench/raw/loopback_pair.h"

namespace drift::bench {

struct PingpongBenchConfig {
  std::uint64_t small_bytes = 64;
  std::uint64_t small_rounds = 2000;
  std::uint64_t large_bytes = 1u << 20;
  std::uint64_t large_rounds = 200;
  int repetitions = 7;
  bool pin = true;
  std::chrono::milliseconds job_timeout{120000};
};

BenchTable run_pingpong_bench(const BenchCluster& cluster, LoopbackPair& raw,
                              const PingpongBenchConfig& config);

// One pingpong job (task 0 on node 1, task 1 on node 2): its elapsed seconds, as task 0 read
// them from its first send to its last echo.
Result<double> drift_pingpong_seconds(const BenchCluster& cluster, std::uint64_t bytes,
                                      std::uint64_t rounds, std::chrono::milliseconds timeout);

}  // namespace drift::bench
