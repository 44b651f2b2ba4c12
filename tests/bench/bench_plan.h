// What drift_bench measures in a full run and in --quick mode (the CTest smoke test, under a
// minute on 2 cores): state sizes, repetitions, rounds, job lengths.
#pragma once

#include "tests/bench/forwarding_bench.h"
#include "tests/bench/migration_bench.h"
#include "tests/bench/pingpong_bench.h"
#include "tests/bench/tls_bench.h"

namespace drift::bench {

struct BenchPlan {
  MigrationBenchConfig migration;
  PingpongBenchConfig pingpong;
  ForwardingBenchConfig forwarding;
  TlsBenchConfig tls;
};

BenchPlan full_plan();
BenchPlan quick_plan();

}  // namespace drift::bench
