// drift_bench's full and quick plans (bench_plan.h).
#include "tests/bench/bench_plan.h"

namespace drift::bench {

BenchPlan full_plan() {
  BenchPlan p;
  p.migration.state_bytes = {1ull << 10, 1ull << 20, 16ull << 20, 64ull << 20};
  return p;  // the configs' defaults are the full run
}

BenchPlan quick_plan() {
  using std::chrono::milliseconds;
  BenchPlan p;
  p.migration.state_bytes = {1ull << 10, 1ull << 20, 4ull << 20};
  p.migration.migrations = 2;
  p.migration.raw_repetitions = 3;
  p.migration.steps = 300;
  p.migration.idle_steps = 5000;
  p.migration.job_timeout = p.migration.migration_timeout = milliseconds(15000);
  p.pingpong.small_rounds = 200;
  p.pingpong.large_rounds = 20;
  p.pingpong.repetitions = 1;
  p.pingpong.job_timeout = milliseconds(15000);
  p.forwarding.steps = 150;
  p.forwarding.migrate_at_step = 5;
  p.forwarding.settle_steps = 40;
  p.forwarding.job_timeout = p.forwarding.request_timeout = milliseconds(15000);
  p.tls.small_rounds = 200;
  p.tls.large_rounds = 20;
  p.tls.repetitions = 1;
  p.tls.migration_bytes = 4ull << 20;
  p.tls.migration = p.migration;
  p.tls.connections = 5;
  p.tls.job_timeout = milliseconds(15000);
  return p;
}

}  // namespace drift::bench
