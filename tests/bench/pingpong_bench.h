// Benchmark (b): task-to-task round-trip latency (small messages) and 1 MB throughput with the
// pingpong app (task 0 on node 1, task 1 on node 2, its own handlers timing the rounds), beside
// a raw Asio TCP ping-pong of the same messages between two threads, in the same run: drift's
// median run beside raw's best. Targets: RTT at most 1.5x raw; throughput at least 70 % of raw.
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
  int repetitions = 3;
  std::chrono::milliseconds job_timeout{120000};
};

BenchTable run_pingpong_bench(const BenchCluster& cluster, LoopbackPair& raw,
                              const PingpongBenchConfig& config);

}  // namespace drift::bench
