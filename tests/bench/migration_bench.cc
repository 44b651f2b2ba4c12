// Benchmark (a): migration time beside raw TCP (migration_bench.h).
#include "tests/bench/migration_bench.h"

#include "ctl/job_client.h"
#include "tests/bench/checked_job.h"
#include "tests/bench/migration_driver.h"
#include "tests/bench/raw/raw_transfer.h"
#include "tests/bench/raw/sample_stats.h"

namespace drift::bench {

namespace {

// The targets (issue: move bytes at the speed of the wire): a 1 KiB task in at most 0.3 ms end
// to end; 1 MiB in at most 2x its raw transfer; 64 MiB in at most 1.3x.
struct SizeTarget {
  std::uint64_t bytes;
  double seconds;  // an absolute bound, or 0
  double ratio;    // a bound on drift / raw, or 0
};
constexpr SizeTarget kTargets[] = {
    {1ull << 10, 0.3e-3, 0}, {1ull << 20, 0, 2.0}, {64ull << 20, 0, 1.3}};

const SizeTarget* target_of(std::uint64_t bytes) {
  for (const SizeTarget& t : kTargets) {
    if (t.bytes == bytes) return &t;
  }
  return nullptr;
}

// Median, like drift's figure: the same statistic on both sides of the ratio.
Result<double> raw_median(LoopbackPair& raw, std::uint64_t bytes, int repetitions) {
  std::vector<double> samples;
  for (int i = 0; i < repetitions; ++i) {
    auto s = raw_transfer_seconds(raw, bytes);
    if (!s) return s.status();
    samples.push_back(*s);
  }
  return median(samples);
}

}  // namespace

Result<DriftSamples> drift_migrations(const BenchCluster& cluster, std::uint64_t bytes,
                                      const MigrationBenchConfig& config) {
  auto job_connection = cluster.connect(1);
  auto control_options = cluster.connect_options(1);
  if (!job_connection) return job_connection.status();
  if (!control_options) return control_options.status();
  ControlClient control(*control_options);
  MigrationDriver driver(control, MigrationPlan{0, 1, config.migrations, 1, config.steps_between,
                                                config.migration_timeout});
  const JobSpec spec =
      ctl::job_spec("ballast", 2, config.steps,
                    {{"state", std::to_string(bytes)}, {"work", std::to_string(config.work_us)}});
  auto result = run_checked_job(
      **job_connection, spec, [&](const JobProgress& p) { driver.on_progress(p); },
      config.job_timeout);
  if (driver.error()) {
    return Status::error(*driver.error() + (result ? "" : "; and then " + result.error()));
  }
  if (!result) return result.status();
  DriftSamples out;
  for (const MigrationReport& r : driver.reports()) {
    out.seconds.push_back(r.seconds);
    out.state_bytes = r.state_bytes;
  }
  if (out.seconds.empty()) return Status::error("the job ended before the first migration");
  if (static_cast<int>(out.seconds.size()) < config.migrations) {
    out.note = "the job ended after " + std::to_string(out.seconds.size()) + " of " +
               std::to_string(config.migrations) + " migrations; raise its steps";
  }
  return out;
}

namespace {

std::string samples_note(const std::string& label, const DriftSamples& d) {
  std::string text = label + ": " + std::to_string(d.seconds.size()) + " migrations of " +
                     std::to_string(d.state_bytes) + " state bytes, best " +
                     format_seconds(best(d.seconds)) + ", samples";
  for (double s : d.seconds) text += " " + format_seconds(s);
  return d.note.empty() ? text : text + "; " + d.note;
}

void measure_size(const BenchCluster& cluster, LoopbackPair& raw, std::uint64_t bytes,
                  const MigrationBenchConfig& config, BenchTable& table,
                  const std::string& label_suffix = "") {
  BenchRow row;
  row.label = format_size(bytes) + label_suffix;
  const SizeTarget* target = target_of(bytes);
  row.target = !target            ? "—"
               : target->seconds ? "≤ " + format_seconds(target->seconds)
                                 : "≤ " + format_ratio(target->ratio, 1.0) + " raw";
  auto raw_s = raw_median(raw, bytes, config.raw_repetitions);
  if (!raw_s) return table.add_failure(row, "raw baseline: " + raw_s.error());
  row.raw = format_seconds(*raw_s);
  auto drift = drift_migrations(cluster, bytes, config);
  if (!drift) return table.add_failure(row, drift.error());
  const double drift_s = median(drift->seconds);
  row.drift = format_seconds(drift_s);
  row.ratio = format_ratio(drift_s, *raw_s);
  if (target) {
    row.met = format_met(target->seconds ? drift_s <= target->seconds
                                         : drift_s <= target->ratio * *raw_s);
  }
  table.notes.push_back(samples_note(row.label, *drift));
  table.rows.push_back(row);
}

}  // namespace

BenchTable run_migration_bench(const BenchCluster& cluster, LoopbackPair& raw,
                               const MigrationBenchConfig& config) {
  BenchTable table;
  table.title = "(a) Migration time by task state size (drift: median of " +
                std::to_string(config.migrations) +
                " moves; raw: one TCP transfer of the same "
                "bytes over loopback, median of " +
                std::to_string(config.raw_repetitions) + ")";
  for (std::uint64_t bytes : config.state_bytes) measure_size(cluster, raw, bytes, config, table);
  MigrationBenchConfig idle = config;
  idle.work_us = 0;
  idle.steps = config.idle_steps;
  for (std::uint64_t bytes : config.idle_row_bytes) {
    measure_size(cluster, raw, bytes, idle, table, ", steps of 0 µs");
  }
  return table;
}

}  // namespace drift::bench
