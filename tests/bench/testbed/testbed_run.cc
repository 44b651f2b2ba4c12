// Runs one testbed row (testbed_run.h).
#include "tests/bench/testbed/testbed_run.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>

#include "ctl/fault_cpu_quota.h"
#include "tests/bench/bench_cluster.h"
#include "tests/bench/checked_job.h"

namespace drift::bench {

namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

ctl::LocalClusterOptions daemon_options(const TestbedSetup& setup, const TestbedRow& row,
                                        const ctl::CpuQuotas* quotas) {
  ctl::LocalClusterOptions o;
  o.extra_args = {"--node.workers=1", "--node.capacity=0"};
  if (quotas) {
    // Each daemon stands for a PC with a CPU of its own, held to its quota: unbound, as MPI's
    // ranks are (unless --set names node.cpu). node.cpu = auto binds those under a core round
    // robin, and then five of seed 000's nine shared one CPU at 95 % of it: particles' diffusion
    // at 50 % of its control, against 71 % unbound in the same session (heat2d 100 % and 98 %).
    const bool named =
        std::any_of(setup.settings.begin(), setup.settings.end(),
                    [](const std::string& kv) { return kv.starts_with("node.cpu="); });
    if (!named) o.extra_args.push_back("--node.cpu=any");
    for (std::size_t i = 0; i < row.quotas.size(); ++i) {
      const int k = static_cast<int>(i) + 1;
      o.launchers[k] = quotas->launcher(k);
    }
  } else {
    o.extra_args.push_back("--emulate.unit_rate=" + number(setup.unit_rate));
  }
  o.extra_args.insert(o.extra_args.end(), {
                  "--balance.strategy=" + row.strategy,
                  "--balance.capacity=" + row.capacity,
                  "--balance.sensing=" + row.sensing,
                  "--balance.eff_min=" + number(setup.eff_min),
                  "--balance.period_ms=" + std::to_string(setup.period_ms)});
  for (const std::string& kv : setup.settings) o.extra_args.push_back("--" + kv);
  for (std::size_t i = 0; i < row.speeds.size() && !quotas; ++i) {
    const int k = static_cast<int>(i) + 1;
    o.node_args[k].push_back("--emulate.speed=" + number(row.speeds[i]));
    if (i < row.loads.size() && !row.loads[i].empty()) {
      o.node_args[k].push_back("--emulate.load=" + row.loads[i]);
    }
  }
  return o;
}

JobSpec particle_spec(const ParticleJob& job, std::uint64_t steps) {
  JobSpec spec;
  spec.app = "particles";
  spec.tasks = job.tasks;
  spec.steps = steps;
  spec.params = {{"cells", std::to_string(job.cells)}, {"particles", std::to_string(job.particles)}};
  spec.runtime = {{"placement", "even"}};
  return spec;
}

// Copies every daemon's log to keep/<row name>/nodeK.log (for reading the balancing rounds).
// With samples.csv: t, then load, capacity, tasks and external load (per core) of each node, as
// sampled.
void keep_logs(const BenchCluster& cluster, const std::filesystem::path& keep,
               const std::string& row, const std::vector<LoadSample>& samples) {
  std::string name;
  for (char c : row) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  std::error_code ec;
  std::filesystem::create_directories(keep / name, ec);
  std::ofstream csv(keep / name / "samples.csv");
  for (const auto& s : samples) {
    csv << s.t;
    for (std::size_t k = 0; k < s.load.size(); ++k) {
      csv << ',' << s.load[k] << ',' << (k < s.capacity.size() ? s.capacity[k] : 0) << ','
          << (k < s.tasks.size() ? s.tasks[k] : 0) << ','
          << (k < s.external.size() ? s.external[k] : 0);
    }
    csv << '\n';
  }
  for (int k = 1; k <= cluster.nodes(); ++k) {
    std::filesystem::copy_file(cluster.log_file(k), keep / name / ("node" + std::to_string(k) + ".log"),
                               std::filesystem::copy_options::overwrite_existing, ec);
    if (ec) std::cerr << "cannot keep node " << k << "'s log: " << ec.message() << "\n";
  }
}

}  // namespace

RowResult run_row(const TestbedSetup& setup, const TestbedRow& row) {
  RowResult r;
  const bool real = !row.quotas.empty();
  const int nodes = static_cast<int>(real ? row.quotas.size() : row.speeds.size());
  std::unique_ptr<ctl::CpuQuotas> quotas;
  if (real) {
    std::map<int, double> cores;
    for (int k = 1; k <= nodes; ++k) cores[k] = row.quotas[static_cast<std::size_t>(k - 1)];
    auto created = ctl::CpuQuotas::create(cores, setup.cpu_period_us);
    if (!created) {
      r.error = "CPU quotas: " + created.error();
      return r;
    }
    quotas = std::move(*created);
  }
  auto cluster = BenchCluster::start(nodes, setup.base_port, setup.base_config,
                                     daemon_options(setup, row, quotas.get()));
  if (!cluster) {
    r.error = "local cluster: " + cluster.error();
    return r;
  }
  std::vector<ctl::ConnectOptions> targets;
  for (int k = 1; k <= nodes; ++k) {
    auto o = (*cluster)->connect_options(k);
    if (!o) {
      r.error = o.error();
      return r;
    }
    targets.push_back(*o);
  }
  auto connection = (*cluster)->connect(1);
  if (!connection) {
    r.error = "node 1: " + connection.error();
    return r;
  }
  LoadSampler sampler(targets, std::chrono::milliseconds(250));
  const JobSpec spec = row.job ? *row.job : particle_spec(setup.job, row.steps);
  const auto began = std::chrono::steady_clock::now();
  sampler.start();
  auto result = run_checked_job(
      **connection, spec,
      [&](const JobProgress& p) {
        r.progress.emplace_back(
            p.step, std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
        std::cerr << "\r  " << row.name << ": step " << p.step << "/" << p.steps << "   "
                  << std::flush;
      },
      std::chrono::minutes(30));
  std::cerr << "\n";
  sampler.stop();
  r.samples = sampler.samples();
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  if (!setup.keep_logs.empty()) keep_logs(**cluster, setup.keep_logs, row.name, r.samples);
  if (!result) {
    r.error = describe_job(spec) + ": " + result.error() + "\nnode 1 log:\n" + (*cluster)->log_tail(1);
    return r;
  }
  r.step_s = result->step_s;
  r.migrations = result->migrations;
  r.splits = result->splits;
  r.merges = result->merges;
  r.checksum = result->checksum;
  return r;
}

}  // namespace drift::bench
