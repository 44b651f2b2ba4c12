// Benchmark (b): drift's pingpong beside a raw Asio ping-pong (pingpong_bench.h).
#include "tests/bench/pingpong_bench.h"

#include <functional>

#include "node/ctl/job_client.h"
#include "tests/bench/checked_job.h"
#include "tests/bench/raw/raw_pingpong.h"
#include "tests/bench/raw/sample_stats.h"

namespace drift::bench {

namespace {

constexpr double kRttTarget = 1.5;         // drift RTT <= 1.5 x raw
constexpr double kThroughputTarget = 0.7;  // drift throughput >= 70 % of raw

struct Case {
  std::uint64_t bytes;
  std::uint64_t rounds;
};

// One run's elapsed seconds.
using Runner = std::function<Result<double>(const Case&)>;
using Summary = double (*)(std::vector<double>);

Result<PingPongTiming> timing(const Case& c, int repetitions, const Runner& run, Summary summary) {
  std::vector<double> seconds;
  for (int i = 0; i < repetitions; ++i) {
    auto s = run(c);
    if (!s) return s.status();
    seconds.push_back(*s);
  }
  return pingpong_timing(summary(std::move(seconds)), c.rounds, c.bytes);
}


Result<double> drift_once(const BenchCluster& cluster, const Case& c,
                          std::chrono::milliseconds timeout) {
  auto connection = cluster.connect(1);
  if (!connection) return connection.status();
  const JobSpec spec = ctl::job_spec(
      "pingpong", 2, 1, {{"rounds", std::to_string(c.rounds)}, {"bytes", std::to_string(c.bytes)}});
  auto result = run_checked_job(**connection, spec, nullptr, timeout);
  if (!result) return result.status();
  auto it = result->details.find("elapsed_s");
  if (it == result->details.end()) {
    return Status::error(describe_job(spec) + ": the result has no elapsed_s");
  }
  return std::stod(it->second);
}

Result<double> raw_once(LoopbackPair& raw, const Case& c) {
  auto t = raw_pingpong(raw, c.bytes, c.rounds);
  if (!t) return t.status();
  return t->seconds;
}

std::string label(const char* what, const Case& c) {
  return std::string(what) + ", " + format_size(c.bytes) + " messages, " +
         std::to_string(c.rounds) + " rounds";
}

// What a row compares, and how.
struct Metric {
  const char* what;
  const char* target;
  double (*value)(const PingPongTiming&);
  std::string (*format)(double);
  bool (*met)(double drift, double raw);
};

const Metric kRtt{"round trip", "≤ 1.5× raw", [](const PingPongTiming& t) { return t.rtt_us; },
                  [](double v) { return format_fixed(v, 1) + " µs"; },
                  [](double drift, double raw) { return drift <= kRttTarget * raw; }};
const Metric kThroughput{"throughput", "≥ 0.70× raw",
                         [](const PingPongTiming& t) { return t.throughput_mbps; },
                         [](double v) { return format_fixed(v, 0) + " MB/s"; },
                         [](double drift, double raw) { return drift >= kThroughputTarget * raw; }};

void measure(const Case& c, const Metric& m, int repetitions, const Runner& on_drift,
             const Runner& on_raw, BenchTable& table) {
  BenchRow row{label(m.what, c), "", "", "", m.target, ""};
  auto raw = timing(c, repetitions, on_raw, median);  // the same statistic as drift's
  if (!raw) return table.add_failure(row, "raw baseline: " + raw.error());
  auto drift = timing(c, repetitions, on_drift, median);
  if (!drift) return table.add_failure(row, drift.error());
  row.drift = m.format(m.value(*drift));
  row.raw = m.format(m.value(*raw));
  row.ratio = format_ratio(m.value(*drift), m.value(*raw));
  row.met = format_met(m.met(m.value(*drift), m.value(*raw)));
  table.rows.push_back(row);
}

}  // namespace

BenchTable run_pingpong_bench(const BenchCluster& cluster, LoopbackPair& raw,
                              const PingpongBenchConfig& config) {
  BenchTable table;
  const std::string runs = std::to_string(config.repetitions);
  table.title = "(b) Task-to-task ping-pong, node 1 <-> node 2 (drift: median of " + runs +
                " runs), beside a raw Asio TCP ping-pong between two threads (median of " + runs +
                ")";
  const Runner on_drift = [&](const Case& c) { return drift_once(cluster, c, config.job_timeout); };
  const Runner on_raw = [&](const Case& c) { return raw_once(raw, c); };
  measure({config.small_bytes, config.small_rounds}, kRtt, config.repetitions, on_drift, on_raw,
          table);
  measure({config.large_bytes, config.large_rounds}, kThroughput, config.repetitions, on_drift,
          on_raw, table);
  table.notes.push_back(
      "MB = 10^6 bytes; throughput = 2 × rounds × bytes / elapsed; drift's "
      "time runs from task 0's first send to its last echo, read in its "
      "handlers");
  return table;
}

}  // namespace drift::bench
