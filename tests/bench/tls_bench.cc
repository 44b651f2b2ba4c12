// Benchmark (d): TLS beside plaintext (tls_bench.h).
#include "tests/bench/tls_bench.h"

#include <functional>

#include "tests/bench/pingpong_bench.h"
#include "tests/bench/raw/cpu_pinning.h"
#include "tests/bench/raw/raw_pingpong.h"
#include "tests/bench/raw/sample_stats.h"

namespace drift::bench {

namespace {

using Sample = std::function<Result<double>(const BenchCluster&)>;

struct Pair {
  std::vector<double> tls, plain;
};

// Alternates the two clusters, so that a change in the machine's load affects both alike.
Result<Pair> interleaved(const BenchCluster& tls, const BenchCluster& plain, int repetitions,
                         const Sample& sample) {
  Pair out;
  for (int i = 0; i < repetitions; ++i) {
    auto a = sample(tls);
    if (!a) return Status::error("TLS: " + a.error());
    auto b = sample(plain);
    if (!b) return Status::error("plaintext: " + b.error());
    out.tls.push_back(*a);
    out.plain.push_back(*b);
  }
  return out;
}

// Seconds to open `n` connections to node 1, one after another: the median one.
Result<double> connection_setup(const BenchCluster& cluster, int n) {
  std::vector<double> samples;
  for (int i = 0; i < n; ++i) {
    const auto begin = std::chrono::steady_clock::now();
    auto connection = cluster.connect(1);
    if (!connection) return connection.status();
    samples.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count());
  }
  return median(samples);
}

}  // namespace

BenchTable run_tls_bench(const BenchCluster& tls, const BenchCluster& plain,
                         const TlsBenchConfig& config) {
  BenchTable table;
  // As table (b): each node and its workers on a core of its own, as on two machines.
  std::string placement = "not pinned: this process may use only one core";
  if (auto two = two_cores()) {
    Status st = tls.pin(*two);
    if (st) st = plain.pin(*two);
    placement = st ? "node 1 of each cluster on cpu " + std::to_string(two->first) +
                         ", node 2 on cpu " + std::to_string(two->second)
                   : "not pinned: " + st.message();
  }
  table.notes.push_back("placement: " + placement);
  table.title = "(d) TLS 1.3 beside plaintext: the same jobs and connections on two local "
                "clusters (\"drift\" = TLS, \"raw\" = test.plaintext; medians, runs interleaved)";
  const int reps = config.repetitions;
  {
    BenchRow row{"round trip, " + format_size(config.small_bytes) + " messages", "", "", "",
                 "≤ 1.2× plaintext", ""};
    auto r = interleaved(tls, plain, reps, [&](const BenchCluster& c) {
      return drift_pingpong_seconds(c, config.small_bytes, config.small_rounds, config.job_timeout);
    });
    if (!r) {
      table.add_failure(row, r.error());
    } else {
      const double a = pingpong_timing(median(r->tls), config.small_rounds, config.small_bytes).rtt_us;
      const double b = pingpong_timing(median(r->plain), config.small_rounds, config.small_bytes).rtt_us;
      row.drift = format_fixed(a, 1) + " µs";
      row.raw = format_fixed(b, 1) + " µs";
      row.ratio = format_ratio(a, b);
      row.met = format_met(a <= 1.2 * b);
      table.rows.push_back(row);
    }
  }
  {
    BenchRow row{"throughput, " + format_size(config.large_bytes) + " messages", "", "", "",
                 "≥ 0.7× plaintext, ≥ 1000 MB/s", ""};
    auto r = interleaved(tls, plain, reps, [&](const BenchCluster& c) {
      return drift_pingpong_seconds(c, config.large_bytes, config.large_rounds, config.job_timeout);
    });
    if (!r) {
      table.add_failure(row, r.error());
    } else {
      const double a = pingpong_timing(median(r->tls), config.large_rounds, config.large_bytes)
                           .throughput_mbps;
      const double b = pingpong_timing(median(r->plain), config.large_rounds, config.large_bytes)
                           .throughput_mbps;
      row.drift = format_fixed(a, 0) + " MB/s";
      row.raw = format_fixed(b, 0) + " MB/s";
      row.ratio = format_ratio(a, b);
      row.met = format_met(a >= 0.7 * b && a >= 1000);
      table.rows.push_back(row);
    }
  }
  {
    BenchRow row{"migration, " + format_size(config.migration_bytes) + " state", "", "", "",
                 "≤ 1.5× plaintext", ""};
    auto r = interleaved(tls, plain, 1, [&](const BenchCluster& c) -> Result<double> {
      auto samples = drift_migrations(c, config.migration_bytes, config.migration);
      if (!samples) return samples.status();
      return median(samples->seconds);
    });
    if (!r) {
      table.add_failure(row, r.error());
    } else {
      row.drift = format_seconds(r->tls[0]);
      row.raw = format_seconds(r->plain[0]);
      row.ratio = format_ratio(r->tls[0], r->plain[0]);
      row.met = format_met(r->tls[0] <= 1.5 * r->plain[0]);
      table.rows.push_back(row);
      table.notes.push_back("migration: the median of " + std::to_string(config.migration.migrations) +
                            " moves of one ballast job's task on each cluster");
    }
  }
  {
    BenchRow row{"connection set-up (TCP, TLS, handshake)", "", "", "", "≤ 5 ms", ""};
    auto r = interleaved(tls, plain, 1, [&](const BenchCluster& c) {
      return connection_setup(c, config.connections);
    });
    if (!r) {
      table.add_failure(row, r.error());
    } else {
      row.drift = format_seconds(r->tls[0]);
      row.raw = format_seconds(r->plain[0]);
      row.ratio = format_ratio(r->tls[0], r->plain[0]);
      row.met = format_met(r->tls[0] <= 0.005);
      table.rows.push_back(row);
      table.notes.push_back("set-up: the median of " + std::to_string(config.connections) +
                            " ClientConnection::open to node 1 in a row, each then closed");
    }
  }
  table.notes.push_back("TLS: 1.3, TLS_AES_128_GCM_SHA256, external PSK from the cluster secret "
                        "with an ephemeral X25519 exchange (psk_dhe_ke)");
  return table;
}

}  // namespace drift::bench
