// drift_bench: measures migration time, task-to-task latency and throughput, and forwarding
// after a migration on a local cluster of 2 daemons, beside raw Asio TCP baselines measured in
// the same run, and what TLS costs beside a second, plaintext cluster (tls_bench.h); prints Markdown tables and writes them to tests/bench/results/migration.md.
// Exit status: 0 when everything ran (missed targets are reported, not fatal), 1 on any error
// (a failed migration, job, request or baseline; the cluster not starting), 2 on a usage error.
#include <iostream>

#include "tests/bench/bench_cluster.h"
#include "tests/bench/bench_options.h"
#include "tests/bench/bench_plan.h"
#include "tests/bench/bench_report.h"
#include "tests/bench/raw/loopback_pair.h"

namespace drift::bench {
namespace {

constexpr int kNodes = 2;

void add(BenchReport& report, BenchTable table) {
  std::cout << render_markdown(table) << std::flush;
  report.tables.push_back(std::move(table));
}

void measure(const BenchOptions& o, BenchReport& report) {
  BenchPlan plan = o.quick ? quick_plan() : full_plan();
  plan.pingpong.pin = !o.no_pin;
  auto raw = LoopbackPair::open();
  if (!raw) return report.errors.push_back(raw.error());
  std::cout << "starting " << kNodes << (o.plaintext ? " plaintext" : "")
            << " daemons on 127.0.0.1:" << o.base_port << "..." << std::endl;
  ctl::LocalClusterOptions main_options = BenchCluster::default_options();
  main_options.plaintext = o.plaintext;
  auto cluster = BenchCluster::start(kNodes, o.base_port, o.base_config, std::move(main_options));
  if (!cluster) return report.errors.push_back("local cluster: " + cluster.error());
  if (o.wants("migration")) add(report, run_migration_bench(**cluster, **raw, plan.migration));
  if (o.wants("pingpong")) add(report, run_pingpong_bench(**cluster, **raw, plan.pingpong));
  if (o.wants("forwarding")) add(report, run_forwarding_bench(**cluster, plan.forwarding));
  if (o.wants("tls")) {
    std::cout << "starting " << kNodes << " plaintext daemons on 127.0.0.1:" << o.base_port + 2
              << "..." << std::endl;
    ctl::LocalClusterOptions options = BenchCluster::default_options();
    options.plaintext = true;
    auto plain = BenchCluster::start(kNodes, o.base_port + 2, o.base_config, std::move(options));
    if (!plain) return report.errors.push_back("plaintext local cluster: " + plain.error());
    add(report, run_tls_bench(**cluster, **plain, plan.tls));
  }
}

int run(const BenchOptions& o) {
  BenchReport report;
  report.machine = describe_machine(DRIFT_BUILD_TYPE, DRIFT_SOURCE_DIR);
  report.quick = o.quick;
  report.setup = "drift: " + std::to_string(kNodes) +
                 " driftd on 127.0.0.1 started with "
                 "driftctl's LocalCluster (base config " +
                 o.base_config.filename().string() + (o.plaintext ? ", test.plaintext" : "") +
                 ", node.capacity = 1, balance.capacity = static, balance.strategy = none); raw: "
                 "Asio TCP over 127.0.0.1 in this process.";
  measure(o, report);
  const std::string text = render_report(report);
  std::cout << text.substr(text.find("**Verdict:**")) << std::flush;
  if (Status s = write_report(o.out, text); !s) {
    std::cerr << "drift_bench: " << s.message() << "\n";
    return 1;
  }
  std::cout << "results written to " << o.out.string() << "\n";
  return report.all_errors().empty() ? 0 : 1;
}

}  // namespace
}  // namespace drift::bench

int main(int argc, char** argv) {
  auto options = drift::bench::parse_bench_options(argc, argv, DRIFT_SOURCE_DIR);
  if (!options) {
    std::cerr << "drift_bench: " << options.error() << "\n";
    return 2;
  }
  if (options->help) {
    std::cout << options->help_text;
    return 0;
  }
  return drift::bench::run(*options);
}
