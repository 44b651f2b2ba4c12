// Benchmark (a): migration time for task states of several sizes beside a raw TCP transfer of
// the same bytes, in the same run. For each size a ballast job of 2 tasks runs on the cluster
// (task 0 on node 1, task 1 on node 2); once its first JobProgress has given the job id, task 0 is
// moved to the other node with MigrateRequest, back and forth, a few steps apart, and each
// MigrationReport's `seconds` (freeze to resumed at the destination) is a sample. The job must
// still end with the serial reference's checksum: the state survived every move. Reported: the
// median; targets: 1 KiB in at most 0.3 ms, 1 MiB in at most 2x the raw transfer, 64 MiB in at
// most 1.3x.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "tests/bench/bench_cluster.h"
#include "tests/bench/bench_table.h"
#include "tests/bench/raw/loopback_pair.h"

namespace drift::bench {

struct MigrationBenchConfig {
  std::vector<std::uint64_t> state_bytes;
  int migrations = 9;  // per size, alternating node 1 -> 2 -> 1 ...
  int raw_repetitions = 9;
  std::uint64_t steps = 600;  // of the ballast job; it must outlive the migrations
  std::uint64_t work_us = 1000;
  std::uint64_t steps_between = 3;  // job steps between two migrations
  // Also a row for each of these state sizes whose task computes nothing in its steps: a move
  // asked while the task runs a handler waits for it (and for a handler queued behind it), the
  // above rows' `work_us` on average half the time or more; here the move itself is timed. Its
  // job's steps: `idle_steps`.
  std::vector<std::uint64_t> idle_row_bytes = {1ull << 10, 1ull << 20};
  std::uint64_t idle_steps = 20000;
  std::chrono::milliseconds job_timeout{120000};
  std::chrono::milliseconds migration_timeout{60000};
};

BenchTable run_migration_bench(const BenchCluster& cluster, LoopbackPair& raw,
                               const MigrationBenchConfig& config);

// One ballast job on `cluster` whose task 0 moves config.migrations times: each move's seconds.
struct DriftSamples {
  std::vector<double> seconds;
  std::uint64_t state_bytes = 0;  // as the reports say
  std::string note;
};
Result<DriftSamples> drift_migrations(const BenchCluster& cluster, std::uint64_t bytes,
                                      const MigrationBenchConfig& config);

}  // namespace drift::bench
