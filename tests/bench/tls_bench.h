// Benchmark (d): what TLS costs. The same measurements on two local clusters in one run, one
// with TLS (as drift always runs) and one with test.plaintext, runs interleaved: the 64 B round
// trip and 1 MiB throughput of the pingpong job (table b's), a 64 MiB migration (table a's), and
// connection set-up (driftctl's ClientConnection::open: TCP, TLS, the drift handshake). Targets:
// round trip ≤ 1.2× plaintext, throughput ≥ 0.7× plaintext and ≥ 1 GB/s, migration ≤ 1.5×
// plaintext, set-up ≤ 5 ms.
#pragma once

#include <chrono>
#include <cstdint>

#include "tests/bench/bench_cluster.h"
#include "tests/bench/bench_table.h"
#include "tests/bench/migration_bench.h"

namespace drift::bench {

struct TlsBenchConfig {
  std::uint64_t small_bytes = 64;
  std::uint64_t small_rounds = 2000;
  std::uint64_t large_bytes = 1u << 20;
  std::uint64_t large_rounds = 200;
  int repetitions = 5;
  std::uint64_t migration_bytes = 64ull << 20;
  MigrationBenchConfig migration;  // its state_bytes unused
  int connections = 50;
  std::chrono::milliseconds job_timeout{120000};
};

BenchTable run_tls_bench(const BenchCluster& tls, const BenchCluster& plaintext,
                         const TlsBenchConfig& config);

}  // namespace drift::bench
