// Benchmark (c): messages forwarded per sender after a migration. A chatter job (8 tasks on 2
// nodes) runs; after a few steps task 0 is moved from node 1 to node 2; some steps later a
// TasksRequest asks for the messages forwarded for task 0 (summed over all nodes), which is
// divided by the number of tasks that sent to task 0 since the move (chatter's schedule says
// who). Target: at most 1 forwarded message per sender. The job must still match the serial
// reference.
#pragma once

#include <chrono>
#include <cstdint>

#include "tests/bench/bench_cluster.h"
#include "tests/bench/bench_table.h"

namespace drift::bench {

struct ForwardingBenchConfig {
  std::uint32_t tasks = 8;
  std::uint64_t steps = 400;
  std::uint64_t work_us = 200;
  std::uint64_t migrate_at_step = 10;
  std::uint64_t settle_steps = 100;  // between the move and the TasksRequest
  std::chrono::milliseconds job_timeout{120000};
  std::chrono::milliseconds request_timeout{30000};
};

BenchTable run_forwarding_bench(const BenchCluster& cluster, const ForwardingBenchConfig& config);

}  // namespace drift::bench
