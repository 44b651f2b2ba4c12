// Benchmark (b): drift's pingpong beside a raw Asio ping-pong (pingpong_bench.h).
#include "tests/bench/pingpong_bench.h"

#include <functional>

#include "ctl/job_client.h"
#include "protocol/codec.h"
#include "tests/bench/checked_job.h"
#include "tests/bench/raw/cpu_pinning.h"
#include "tests/bench/raw/raw_event_pingpong.h"
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

// The bytes drift writes for one message of `payload` bytes: its whole frame.
std::size_t drift_frame_bytes(std::uint64_t payload) {
  return encode_prefix(TaskMessage{}, payload).size() + static_cast<std::size_t>(payload);
}


}  // namespace

Result<double> drift_pingpong_seconds(const BenchCluster& cluster, std::uint64_t bytes,
                                      std::uint64_t rounds, std::chrono::milliseconds timeout) {
  const Case c{bytes, rounds};
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

namespace {

using Cores = std::pair<int, int>;  // node 1's and node 2's; -1: anywhere

Result<double> raw_once(const Case& c, Cores cores) {
  auto t = raw_event_pingpong(drift_frame_bytes(c.bytes), c.bytes, c.rounds, cores);
  if (!t) return t.status();
  return t->seconds;
}

Result<double> blocking_once(LoopbackPair& raw, const Case& c, Cores cores) {
  auto t = raw_pingpong(raw, drift_frame_bytes(c.bytes), c.rounds, cores);
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

struct Runners {
  Runner drift, raw, blocking;
};

// Runs alternate (raw, drift, blocking, raw, ...) so that a change in the machine's load
// affects all three alike; each figure is the median of its runs.
void measure(const Case& c, const Metric& m, int repetitions, const Runners& run,
             BenchTable& table) {
  BenchRow row{label(m.what, c), "", "", "", m.target, ""};
  std::vector<double> drift_s, raw_s, blocking_s;
  for (int i = 0; i < repetitions; ++i) {
    auto raw = run.raw(c);
    if (!raw) return table.add_failure(row, "raw baseline: " + raw.error());
    auto drift = run.drift(c);
    if (!drift) return table.add_failure(row, drift.error());
    auto blocking = run.blocking(c);
    if (!blocking) return table.add_failure(row, "blocking raw baseline: " + blocking.error());
    raw_s.push_back(*raw);
    drift_s.push_back(*drift);
    blocking_s.push_back(*blocking);
  }
  const PingPongTiming drift = pingpong_timing(median(drift_s), c.rounds, c.bytes);
  const PingPongTiming raw = pingpong_timing(median(raw_s), c.rounds, c.bytes);
  const PingPongTiming blocking = pingpong_timing(median(blocking_s), c.rounds, c.bytes);
  row.drift = m.format(m.value(drift));
  row.raw = m.format(m.value(raw));
  row.ratio = format_ratio(m.value(drift), m.value(raw));
  row.met = format_met(m.met(m.value(drift), m.value(raw)));
  table.rows.push_back(row);
  table.notes.push_back(row.label + ": blocking threads instead of event loops (no epoll): " +
                        m.format(m.value(blocking)) + ", drift " +
                        format_ratio(m.value(drift), m.value(blocking)) + " of it");
}

Status pin_nodes(const BenchCluster& cluster, Cores cores) { return cluster.pin(cores); }

BenchTable measure_all(const BenchCluster& cluster, LoopbackPair& raw,
                       const PingpongBenchConfig& config, Cores cores) {
  BenchTable table;
  const std::string runs = std::to_string(config.repetitions);
  table.title = "(b) Task-to-task ping-pong, node 1 <-> node 2 (drift: median of " + runs +
                " runs), beside a raw Asio TCP ping-pong between two event loops with drift's " +
                "framing and frame size (median of " + runs + ", runs interleaved)";
  const Runners runners{[&](const Case& c) {
                          return drift_pingpong_seconds(cluster, c.bytes, c.rounds,
                                                        config.job_timeout);
                        },
                        [&](const Case& c) { return raw_once(c, cores); },
                        [&](const Case& c) { return blocking_once(raw, c, cores); }};
  measure({config.small_bytes, config.small_rounds}, kRtt, config.repetitions, runners, table);
  measure({config.large_bytes, config.large_rounds}, kThroughput, config.repetitions, runners,
          table);
  const std::string frame = std::to_string(drift_frame_bytes(config.small_bytes)) +
                            " bytes for " + std::to_string(config.small_bytes) + " payload bytes";
  table.notes.push_back(
      "MB = 10^6 bytes; throughput = 2 × rounds × payload bytes / elapsed; drift's time runs "
      "from task 0's first send to its last echo, read in its handlers; the raw frames are as "
      "long as drift's (" + frame + "): a 12-byte header with the body's length, read first, "
      "then the body");
  return table;
}

}  // namespace

BenchTable run_pingpong_bench(const BenchCluster& cluster, LoopbackPair& raw,
                              const PingpongBenchConfig& config) {
  BenchTable table;
  Cores cores{-1, -1};
  std::string placement = "not pinned (--no-pin)";
  if (config.pin) {
    placement = "not pinned: this process may use only one core";
    if (auto two = two_cores()) {
      if (Status s = pin_nodes(cluster, *two); !s) {
        placement = "not pinned: " + s.message();
        (void)pin_nodes(cluster, cores);
      } else {
        cores = *two;
        placement = "node 1 and the raw pinger on cpu " + std::to_string(two->first) +
                    ", node 2 and the raw echoer on cpu " + std::to_string(two->second);
      }
    }
  }
  table = measure_all(cluster, raw, config, cores);
  if (cores.first >= 0) (void)pin_nodes(cluster, {-1, -1});
  table.notes.push_back("placement: " + placement);
  return table;
}

}  // namespace drift::bench
