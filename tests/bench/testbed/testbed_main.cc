// drift_testbed: seed 000's ten-machine heterogeneous testbed, emulated on this machine (docs/architecture.md
// §8.6): 10 daemons with relative speeds 1 … 39 run a particles job placed evenly, once per
// balancing configuration (none, homogeneous, heterogeneous with static and with dynamic
// capacities), with and without the slowest machine (Figures 3 and 4); then seed 002's dynamic
// external load (4 machines, load ramping on 2 mid-run, sensing every round vs once); then the
// heartbeat and balancing traffic per node with 10 and 40 daemons; then granularity: heat2d with
// one tile per machine, whole tiles only vs tiles that split into spare tasks. Writes a Markdown
// report and
// SVG plots under tests/bench/results/. Exit status: 0 when everything ran (missed targets are
// reported, not fatal), 1 on an error, 2 on a usage error.
#include <boost/program_options.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include "tests/bench/bench_cluster.h"
#include "tests/bench/bench_report.h"
#include "tests/bench/machine_info.h"
#include "tests/bench/testbed/svg_plot.h"
#include "tests/bench/testbed/testbed_metrics.h"
#include "tests/bench/testbed/testbed_real.h"
#include "tests/bench/testbed/testbed_run.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace drift::bench {
namespace {

const std::vector<double> kSeedSpeeds{1, 4.4, 6, 6, 6, 6.8, 8.6, 13, 38, 39};  // Figure 2

struct Options {
  bool quick = false;
  fs::path out_dir;
  fs::path base_config;
  std::uint16_t base_port = 18100;
  std::set<std::string> only;
  double eff_min = 0.95;  // balance.eff_min of every daemon
  int cpu_period_ms = 5;  // real rows: the quotas' enforcement period
  fs::path keep_logs;     // copy each row's daemon logs under here (empty: don't)
  std::vector<std::string> rows;  // figure rows to run besides no balancing (empty: all)
  std::vector<std::string> settings;  // "key=value" for every daemon (--set)
  bool wants(const std::string& part) const { return only.empty() || only.count(part) > 0; }
};

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

struct Report {
  std::ostringstream md;
  std::vector<std::string> errors;
  std::vector<std::string> missed;
  void target(bool met, const std::string& what) {
    if (!met) missed.push_back(what);
  }
};

void write_file(const fs::path& file, const std::string& text, Report& report) {
  std::ofstream f(file);
  f << text;
  if (!f) report.errors.push_back("cannot write " + file.string());
}

struct Measured {
  TestbedRow row;
  std::string seed;  // the seed's figure for this scenario
  RowResult result;
  double steady = 0;
  std::size_t converged = 0;
  std::uint64_t moved_after = 0;
  std::uint64_t rounds = 0;
};

Measured measure(const TestbedSetup& setup, const TestbedRow& row, Report& report) {
  std::cout << "- " << row.name << " (" << row.speeds.size() << " daemons, " << row.steps
            << " steps)" << std::endl;
  Measured m{row, "", run_row(setup, row)};
  if (!m.result.error.empty()) {
    report.errors.push_back(row.name + ": " + m.result.error);
    std::cout << "  FAILED: " << m.result.error << std::endl;
    return m;
  }
  m.steady = steady_step(m.result.step_s);
  m.converged = converged_step(m.result.step_s, m.steady, 0.15);
  if (m.result.step_s.empty()) return m;
  // Moves counted from the end of the first converged step (a move that made the run converge
  // may finish installing while that step runs), on the samples' clock: the job's first step
  // comes seconds after its submission.
  const double t_conv = reached_at(m.result.progress, m.converged + 1);
  std::vector<std::pair<double, std::uint64_t>> arrivals;
  for (const auto& s : m.result.samples) arrivals.emplace_back(s.t, s.migrations_in);
  m.moved_after = growth_after(arrivals, t_conv);
  if (!m.result.samples.empty()) m.rounds = m.result.samples.back().balance_rounds_max;
  std::cout << "  steady step " << fixed(m.steady, 3) << " s, " << m.result.migrations
            << " migrations, converged at step " << m.converged << std::endl;
  return m;
}

std::string slug(const std::string& name) {
  std::string s;
  for (char c : name) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return s;
}

void plot_steps(const std::vector<Measured>& rows, const std::string& title, const fs::path& file,
                Report& report) {
  Plot p{title, "step", "step time (s)", true, {}};
  for (const auto& m : rows) {
    PlotSeries s{m.row.name, {}, false};
    for (std::size_t i = 0; i < m.result.step_s.size(); ++i) s.points.emplace_back(i + 1, m.result.step_s[i]);
    p.series.push_back(std::move(s));
  }
  write_file(file, render_svg(p), report);
}

void plot_shares(const Measured& m, const fs::path& file, Report& report) {
  Plot p{m.row.name + ": each node's share of the load (dashed: its share of the speed)",
         "seconds since the job started", "share of the total load", false, {}};
  double speed_sum = 0;
  for (double s : m.row.speeds) speed_sum += s;
  for (std::size_t n = 0; n < m.row.speeds.size(); ++n) {
    PlotSeries s{"node " + std::to_string(n + 1) + " (" + fixed(m.row.speeds[n], 1) + ")", {}, false};
    for (const auto& sample : m.result.samples) {
      double total = 0;
      for (double l : sample.load) total += l;
      if (total > 0 && n < sample.load.size()) s.points.emplace_back(sample.t, sample.load[n] / total);
    }
    p.series.push_back(std::move(s));
  }
  if (m.row.speeds.size() <= 4) {  // few nodes: the ideal lines stay readable
    for (std::size_t n = 0; n < m.row.speeds.size(); ++n) {
      PlotSeries ideal{"ideal " + std::to_string(n + 1), {}, true};
      for (const auto& sample : m.result.samples) {
        double cap_sum = 0;
        for (std::size_t k = 0; k < m.row.speeds.size(); ++k) {
          cap_sum += m.row.speeds[k] / (1 + (k < sample.external.size() ? sample.external[k] : 0));
        }
        const double mine = m.row.speeds[n] / (1 + (n < sample.external.size() ? sample.external[n] : 0));
        ideal.points.emplace_back(sample.t, mine / cap_sum);
      }
      p.series.push_back(std::move(ideal));
    }
  } else {
    const double t_end = m.result.samples.empty() ? 1 : m.result.samples.back().t;
    PlotSeries fastest{"ideal, speed " + fixed(m.row.speeds.back(), 0), {{0, m.row.speeds.back() / speed_sum}, {t_end, m.row.speeds.back() / speed_sum}}, true};
    PlotSeries slowest{"ideal, speed " + fixed(m.row.speeds.front(), 1), {{0, m.row.speeds.front() / speed_sum}, {t_end, m.row.speeds.front() / speed_sum}}, true};
    p.series.push_back(std::move(fastest));
    p.series.push_back(std::move(slowest));
  }
  write_file(file, render_svg(p), report);
}

// Figures 3 and 4: four balancing configurations on the given machines.
void figure(const Options& o, TestbedSetup setup, const std::vector<double>& speeds,
            const std::string& key, const std::string& title, double seed_improvement,
            const std::vector<std::string>& seed_rows, double target_ratio, Report& report) {
  const double work = setup.job.particles;
  const double ideal = ideal_step(work, setup.unit_rate, speeds);
  double slowest = 1e300;
  for (double s : speeds) slowest = std::min(slowest, s);
  const double unbalanced_model = work / speeds.size() / (setup.unit_rate * slowest);
  std::cout << title << ": ideal step " << fixed(ideal, 3) << " s, even placement "
            << fixed(unbalanced_model, 3) << " s" << std::endl;
  const std::uint64_t steps = o.quick ? 8 : setup.job.steps;
  if (!o.keep_logs.empty()) setup.keep_logs = o.keep_logs / key;
  struct Scenario {
    TestbedRow row;
    std::string seed;
  };
  std::vector<Scenario> rows = {
      {{"no balancing", "none", "dynamic", "every", speeds, {}, o.quick ? 3u : 5u}, seed_rows[0]},
      {{"homogeneous", "homogeneous", "dynamic", "every", speeds, {}, steps}, seed_rows[1]},
      {{"heterogeneous, static capacities", "diffusion", "static", "every", speeds, {}, steps},
       seed_rows[2]},
      {{"heterogeneous, dynamic capacities", "diffusion", "dynamic", "every", speeds, {}, steps},
       seed_rows[3]},
  };
  if (o.quick) rows.erase(rows.begin() + 1, rows.begin() + 3);
  // --row: no balancing stays (the base of the improvement), the others when named.
  std::erase_if(rows, [&](const Scenario& s) {
    if (o.rows.empty() || s.row.strategy == "none") return false;
    return std::none_of(o.rows.begin(), o.rows.end(), [&](const std::string& r) {
      return s.row.name.find(r) != std::string::npos;
    });
  });
  std::vector<Measured> results;
  for (const auto& r : rows) {
    results.push_back(measure(setup, r.row, report));
    results.back().seed = r.seed;
  }
  const double base = results.front().steady;
  report.md << "### " << title << "\n\n"
            << speeds.size() << " daemons, relative speeds";
  for (double s : speeds) report.md << " " << s;
  report.md << "; particles: " << setup.job.particles << " particles in " << setup.job.cells
            << " cells, " << setup.job.tasks << " tasks placed evenly; emulate.unit_rate "
            << setup.unit_rate << " particles/s at speed 1, one worker per daemon; balance.eff_min "
            << setup.eff_min << ", balance.period_ms " << setup.period_ms
            << ". Ideal step Σwork / Σcapacity = " << fixed(ideal, 3) << " s.\n\n"
            << "| scenario | steady step | improvement | % of ideal | rounds | moved after convergence | migrations | seed 000 |\n"
            << "|---|---:|---:|---:|---:|---:|---:|---|\n";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& m = results[i];
    if (!m.result.error.empty()) {
      report.md << "| " << m.row.name << " | FAILED | | | | | | |\n";
      continue;
    }
    report.md << "| " << m.row.name << " | " << fixed(m.steady, 3) << " s | "
              << fixed(base / m.steady, 2) << "× | " << fixed(100 * ideal / m.steady, 1) << " % | "
              << (m.row.strategy == "none" ? std::string("—") : std::to_string(m.rounds)) << " | "
              << (m.row.strategy == "none" ? std::string("—") : std::to_string(m.moved_after))
              << " | " << m.result.migrations << " | " << m.seed << " |\n";
  }
  const Measured& dynamic = results.back();
  if (dynamic.row.capacity == "dynamic" && dynamic.row.strategy == "diffusion" &&
      dynamic.result.error.empty() && results.front().result.error.empty()) {
    const double pct = ideal / dynamic.steady;
    const double improvement = base / dynamic.steady;
    report.md << "\nTarget: dynamic capacities ≥ 90 % of ideal (≥ " << fixed(target_ratio, 1)
              << "× over no balancing; seed " << seed_improvement << "×)"
              << (key == "fig3" ? ", converged within 5 rounds, no tasks moved after convergence" : "")
              << ": **" << fixed(100 * pct, 1) << " %, " << fixed(improvement, 2) << "×";
    if (key == "fig3") report.md << ", " << dynamic.rounds << " rounds, " << dynamic.moved_after << " moved after";
    bool met = pct >= 0.9;
    if (key == "fig3") met = met && dynamic.rounds <= 5 && dynamic.moved_after == 0;
    report.md << " — " << (met ? "met" : "NOT met") << "**.\n";
    report.target(met, title);
  }
  report.md << "\n- rounds: the most balancing rounds in which any one daemon sent tasks away; "
               "convergence: the first step after which every step is within 15 % of the steady "
               "step (median of the last third)\n";
  for (const auto& m : results) {
    if (!m.result.error.empty()) continue;
    report.md << "- " << m.row.name << ": steps";
    for (double s : m.result.step_s) report.md << " " << fixed(s, 2);
    report.md << " (s); checksum " << m.result.checksum << " = serial reference\n";
  }
  plot_steps(results, title + ": step time", o.out_dir / ("testbed-" + key + "-steps.svg"), report);
  report.md << "\n![step times](testbed-" << key << "-steps.svg)\n";
  for (const auto& m : results) {
    if (m.row.strategy == "none" || !m.result.error.empty()) continue;
    const std::string file = "testbed-" + key + "-share-" + slug(m.row.name) + ".svg";
    plot_shares(m, o.out_dir / file, report);
    report.md << "![" << m.row.name << "](" << file << ")\n";
  }
  report.md << "\n";
}

// Seed 002's dynamic load: 4 equal machines, external load ramping on two of them mid-run.
void dynamic_load(const Options& o, TestbedSetup setup, Report& report) {
  const std::vector<double> speeds{8, 8, 8, 8};
  setup.job.particles = o.quick ? 20000 : 120000;
  if (!o.keep_logs.empty()) setup.keep_logs = o.keep_logs / "dynamic";
  setup.job.tasks = o.quick ? 32 : 128;
  setup.job.cells = setup.job.tasks * 10;
  const std::string ramp = o.quick ? "0:1:1" : "20:10:2";  // start_s:ramp_s:level
  const std::uint64_t steps = o.quick ? 8 : 80;
  std::vector<Measured> results;
  for (const std::string sensing : {"every", "once"}) {
    TestbedRow row{"sensing " + sensing, "diffusion", "dynamic", sensing, speeds,
                   {"", "", ramp, ramp}, steps};
    results.push_back(measure(setup, row, report));
  }
  report.md << "### Dynamic external load (seed 002)\n\n4 daemons of speed 8; on daemons 3 and 4 "
               "the external load ramps up as emulate.load = " << ramp
            << " (start s : ramp s : runnable processes) after the daemon started. The ideal "
               "follows the ramp: Σwork / Σ speed/(1 + external load), with each node's emulated "
               "external load as it reported it at the end of the step.\n\n"
            << "| sensing | mean step | mean ideal | ratio (after the ramp began) | migrations |\n"
            << "|---|---:|---:|---:|---:|\n";
  std::vector<double> ratios;
  for (auto& m : results) {
    if (!m.result.error.empty()) {
      report.md << "| " << m.row.name << " | FAILED | | | |\n";
      ratios.push_back(1e9);
      continue;
    }
    const auto ends = step_ends(m.result.step_s);
    double sum = 0, ideal_sum = 0;
    std::size_t counted = 0;
    for (std::size_t i = 0; i < ends.size(); ++i) {
      const LoadSample* at = nullptr;
      for (const auto& s : m.result.samples) {
        if (s.t <= ends[i]) at = &s;
      }
      if (!at) continue;
      double ext = 0;
      for (double e : at->external) ext = std::max(ext, e);
      if (ext <= 0) continue;  // before the ramp began
      sum += m.result.step_s[i];
      ideal_sum += ideal_step(setup.job.particles, setup.unit_rate, speeds, at->external);
      ++counted;
    }
    if (counted == 0) {
      report.md << "| " << m.row.name << " | no step after the ramp began | | | "
                << m.result.migrations << " |\n";
      ratios.push_back(1e9);
      continue;
    }
    const double ratio = sum / ideal_sum;
    ratios.push_back(ratio);
    report.md << "| " << m.row.name << " | " << fixed(counted ? sum / counted : 0, 3) << " s | "
              << fixed(counted ? ideal_sum / counted : 0, 3) << " s | " << fixed(ratio, 3) << "× | "
              << m.result.migrations << " |\n";
    plot_shares(m, o.out_dir / ("testbed-dynamic-share-" + slug(m.row.name) + ".svg"), report);
  }
  if (ratios.size() == 2 && ratios[0] < 1e9 && ratios[1] < 1e9) {
    const bool met = ratios[0] <= 1.15 && ratios[0] < ratios[1];
    report.md << "\nTarget: sensing every round within 15 % of the ideal that follows the ramp, and "
                 "better than sensing once: **"
              << fixed(100 * (ratios[0] - 1), 1) << " % above the ideal vs "
              << fixed(100 * (ratios[1] - 1), 1) << " % — " << (met ? "met" : "NOT met") << "**.\n\n";
    report.target(met, "dynamic external load");
  }
  plot_steps(results, "Dynamic external load: step time", o.out_dir / "testbed-dynamic-steps.svg", report);
  report.md << "![step times](testbed-dynamic-steps.svg)\n"
               "![sensing every round](testbed-dynamic-share-sensing-every.svg)\n"
               "![sensing once](testbed-dynamic-share-sensing-once.svg)\n\n";
}

// Granularity: the Figure 3 machines run heat2d with one tile per machine (placed evenly, as the
// seed's uniform partition). Whole tiles cannot spread work in proportion to capacity; tiles that
// split into spare tasks (heat2d --spare) when no whole tile meets a transfer can.
void granularity(const Options& o, TestbedSetup setup, Report& report) {
  const std::vector<double> speeds = o.quick ? std::vector<double>{1, 6, 13} : kSeedSpeeds;
  const std::uint32_t tiles = static_cast<std::uint32_t>(speeds.size());
  const std::uint32_t side = o.quick ? 602 : 2002;
  const std::uint64_t steps = o.quick ? 10 : 60;
  const std::uint32_t spare = o.quick ? 21 : 310;
  // heat2d's work is its interior cells per sweep; a tile on the slowest machine takes ~2 s.
  setup.unit_rate = static_cast<double>(side - 2) * (side - 2) / tiles / 2.0;
  if (!o.keep_logs.empty()) setup.keep_logs = o.keep_logs / "grain";
  const double work = static_cast<double>(side - 2) * (side - 2);
  const double ideal = ideal_step(work, setup.unit_rate, speeds);
  auto job = [&](std::uint32_t spare_tasks, std::uint64_t job_steps) {
    JobSpec spec;
    spec.app = "heat2d";
    spec.tasks = tiles + spare_tasks;
    spec.steps = job_steps;
    spec.params = {{"size", std::to_string(side) + "x" + std::to_string(side)},
                   {"spare", std::to_string(spare_tasks)}};
    spec.runtime = {{"placement", "even"}};
    return spec;
  };
  std::vector<Measured> results;
  for (const auto& [name, strategy, spare_tasks] :
       {std::tuple{"no balancing", "none", 0u}, std::tuple{"whole tiles", "diffusion", 0u},
        std::tuple{"tiles split", "diffusion", spare}}) {
    // Without balancing every step is alike: a few show it.
    const std::uint64_t row_steps = std::string(strategy) == "none" ? (o.quick ? 3 : 5) : steps;
    TestbedRow row{name, strategy, "dynamic", "every", speeds, {}, row_steps};
    row.job = job(spare_tasks, row_steps);
    results.push_back(measure(setup, row, report));
  }
  report.md << "### Granularity: one heat2d tile per machine\n\n"
            << speeds.size() << " daemons with the Figure 3 speeds; heat2d " << side << "x" << side
            << ", " << tiles << " tiles placed evenly (one per machine), " << steps
            << " steps; `tiles split`: " << spare
            << " spare tasks (`--spare`), split when no whole tile meets a transfer. Ideal step "
            << fixed(ideal, 3) << " s.\n\n"
            << "| scenario | steady step | improvement | % of ideal | splits / merges | migrations |\n"
            << "|---|---:|---:|---:|---:|---:|\n";
  const double base = results.front().steady;
  for (const auto& m : results) {
    if (!m.result.error.empty()) {
      report.md << "| " << m.row.name << " | FAILED | | | | |\n";
      continue;
    }
    report.md << "| " << m.row.name << " | " << fixed(m.steady, 3) << " s | "
              << fixed(base / m.steady, 2) << "× | " << fixed(100 * ideal / m.steady, 1) << " % | "
              << m.result.splits << " / " << m.result.merges << " | " << m.result.migrations
              << " |\n";
  }
  if (results.size() == 3 && results[1].result.error.empty() && results[2].result.error.empty()) {
    const bool better = results[2].steady < results[1].steady;
    report.md << "\nSplitting " << (better ? "beats" : "does NOT beat") << " whole tiles: "
              << fixed(100 * ideal / results[2].steady, 1) << " % vs "
              << fixed(100 * ideal / results[1].steady, 1) << " % of ideal.\n";
    report.target(better, "granularity: splitting beats whole tiles");
  }
  plot_steps(results, "Granularity: step time", o.out_dir / "testbed-grain-steps.svg", report);
  report.md << "\n![step times](testbed-grain-steps.svg)\n";
  for (const auto& m : results) {
    if (m.row.strategy == "none" || !m.result.error.empty()) continue;
    const std::string file = "testbed-grain-share-" + slug(m.row.name) + ".svg";
    plot_shares(m, o.out_dir / file, report);
    report.md << "![" << m.row.name << "](" << file << ")\n";
  }
  report.md << "\n";
}

// Heartbeat and balancing bytes per node per second on idle clusters of two sizes.
void traffic(const Options& o, const TestbedSetup& setup, Report& report) {
  report.md << "### Heartbeat and balancing traffic per node\n\n"
            << "| daemons | bytes per node per second | window |\n|---:|---:|---:|\n";
  std::vector<double> rates;
  const double window_s = o.quick ? 2 : 10;
  const std::vector<int> sizes = o.quick ? std::vector<int>{4, 8} : std::vector<int>{10, 40};
  for (int nodes : sizes) {
    std::cout << "- traffic with " << nodes << " daemons" << std::endl;
    ctl::LocalClusterOptions lo;
    // 40 daemons starting at once on 2 cores starve each other for seconds: a patient detector,
    // since this measures bytes, not detection (false deaths under load are a separate matter).
    lo.extra_args = {"--node.workers=1", "--node.capacity=1", "--balance.strategy=diffusion",
                     "--membership.acceptable_pause_ms=3000", "--membership.suspect_timeout_ms=5000"};
    lo.ready_timeout = std::chrono::seconds(60);
    auto cluster = BenchCluster::start(nodes, setup.base_port, setup.base_config, lo);
    if (!cluster) {
      report.errors.push_back("traffic, " + std::to_string(nodes) + " daemons: " + cluster.error());
      report.md << "| " << nodes << " | FAILED | |\n";
      continue;
    }
    std::vector<ctl::ConnectOptions> targets;
    for (int k = 1; k <= nodes; ++k) targets.push_back(*(*cluster)->connect_options(k));
    LoadSampler sampler(targets, std::chrono::milliseconds(1000));
    // Let every node find its group and settle before the window opens.
    std::this_thread::sleep_for(std::chrono::seconds(2));
    const LoadSample a = sampler.sample_now(0);
    const auto t0 = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::duration<double>(window_s));
    const LoadSample b = sampler.sample_now(0);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double rate = static_cast<double>(b.control_bytes - a.control_bytes) / nodes / elapsed;
    rates.push_back(rate);
    report.md << "| " << nodes << " | " << fixed(rate, 0) << " | " << fixed(elapsed, 1) << " s |\n";
  }
  if (rates.size() == 2 && rates[0] > 0) {
    const double change = rates[1] / rates[0] - 1;
    const bool met = std::abs(change) <= 0.2;
    report.md << "\nTarget: the same (±20 %) with " << sizes[0] << " and " << sizes[1]
              << " daemons: **" << (change >= 0 ? "+" : "")
              << fixed(100 * change, 1) << " % — " << (met ? "met" : "NOT met") << "**.\n\n";
    report.target(met, "traffic per node");
  }
}

int run(const Options& o) {
  Report report;
  const MachineInfo machine = describe_machine(DRIFT_BUILD_TYPE, DRIFT_SOURCE_DIR);
  const bool real_only = o.only.size() == 1 && o.only.count("real");
  report.md << (real_only ? "# drift: heterogeneous balancing on real CPUs"
                          : "# drift: heterogeneous balancing on an emulated testbed")
            << (o.quick ? " (quick)" : "") << "\n\n"
            << describe(machine) << ". Command: `build/bin/drift_testbed"
            << (o.quick ? " --quick" : "") << (real_only ? " --only real" : "")
            << (o.cpu_period_ms != Options{}.cpu_period_ms
                    ? " --cpu-period-ms " + std::to_string(o.cpu_period_ms)
                    : std::string())
            << "`.\n\n";
  TestbedSetup setup;
  setup.base_config = o.base_config;
  setup.base_port = o.base_port;
  setup.eff_min = o.eff_min;
  setup.cpu_period_us = 1000L * o.cpu_period_ms;
  setup.settings = o.settings;
  if (o.quick) setup.job = {480, 24000, 48, 8};
  fs::create_directories(o.out_dir);
  if (o.wants("fig3")) {
    figure(o, setup, o.quick ? std::vector<double>{1, 6, 13} : kSeedSpeeds, "fig3",
           "Figure 3 setup: the whole testbed", 7.1,
           {"14.1 s", "6.5 s (2.2×)", "2.5 s (5.6×)", "2.0 s (7.1×)"}, 11.6, report);
  }
  if (o.wants("fig4")) {
    std::vector<double> without(kSeedSpeeds.begin() + 1, kSeedSpeeds.end());
    figure(o, setup, o.quick ? std::vector<double>{4.4, 6, 13} : without, "fig4",
           "Figure 4 setup: without the slowest machine", 2.2,
           {"4.3 s", "5.2 s (none)", "2.4 s (1.8×)", "2.0 s (2.2×)"}, 2.9, report);
  }
  if (o.wants("dynamic")) dynamic_load(o, setup, report);
  if (o.wants("traffic")) traffic(o, setup, report);
  if (o.wants("grain")) granularity(o, setup, report);
  if (o.only.count("real")) {  // only when asked: it needs root, and its own cores
    if (!o.keep_logs.empty()) setup.keep_logs = o.keep_logs / "real";
    RealTestbedOutcome real = real_cpu_testbed(setup, o.quick, o.out_dir, o.rows);
    report.md << real.markdown;
    report.errors.insert(report.errors.end(), real.errors.begin(), real.errors.end());
    report.missed.insert(report.missed.end(), real.missed.begin(), real.missed.end());
  }
  report.md << "**Verdict:** " << (report.errors.empty() ? "everything ran" : "ERRORS") << "; "
            << (report.missed.empty() ? "every target met" : std::to_string(report.missed.size()) + " target(s) missed") << ".\n";
  for (const auto& e : report.errors) report.md << "\n- error: " << e;
  for (const auto& m : report.missed) report.md << "\n- missed: " << m;
  report.md << "\n";
  const fs::path md =
      o.out_dir / (std::string(real_only ? "testbed-real" : "testbed") + (o.quick ? "-quick" : "") + ".md");
  write_file(md, report.md.str(), report);
  std::cout << report.md.str() << "results written to " << md.string() << std::endl;
  return report.errors.empty() ? 0 : 1;
}

}  // namespace
}  // namespace drift::bench

int main(int argc, char** argv) {
  using drift::bench::Options;
  Options o;
  std::string out = std::string(DRIFT_SOURCE_DIR) + "/tests/bench/results";
  std::string base = std::string(DRIFT_SOURCE_DIR) + "/conf/local.conf";
  std::string keep_logs;
  std::vector<std::string> only;
  int port = 18100;
  po::options_description d(
      "Usage: drift_testbed [options]\n\nSeed 000's heterogeneous testbed, emulated with local "
      "daemons; writes testbed.md and SVG plots.\n\nOptions");
  d.add_options()("quick", po::bool_switch(&o.quick), "a small smoke run (3 daemons, few steps)")(
      "out-dir", po::value<std::string>(&out)->value_name("DIR"),
      "where testbed.md and the plots go (default: the source tree's tests/bench/results)")(
      "base-config", po::value<std::string>(&base)->value_name("FILE"),
      "the daemons' base config (default conf/local.conf)")(
      "base-port", po::value<int>(&port)->value_name("P"), "first TCP port (default 18100)")(
      "only", po::value<std::vector<std::string>>(&only)->composing()->value_name("PART"),
      "run only fig3, fig4, dynamic, traffic, grain or real (repeatable; real — daemons under "
      "real CPU quotas, root only — runs only when named; alone it writes testbed-real.md)")(
      "eff-min", po::value<double>(&o.eff_min)->value_name("E"),
      "every daemon's balance.eff_min: balance when a group's U_avg / U_max is below E "
      "(default 0.95)")(
      "cpu-period-ms", po::value<int>(&o.cpu_period_ms)->value_name("MS"),
      "in real, the CPU quotas' enforcement period (default 5; stretched per daemon where its "
      "quota would come to less than the kernel's 1 ms): the shorter, the more evenly a quota "
      "slows a daemon down, as a slower CPU would, instead of running it in bursts")(
      "keep-logs", po::value<std::string>(&keep_logs)->value_name("DIR"),
      "copy every row's daemon logs to DIR/<part>/<row>/node<K>.log")(
      "row", po::value<std::vector<std::string>>(&o.rows)->composing()->value_name("TEXT"),
      "in fig3 and fig4, run no balancing and the rows whose name contains TEXT (repeatable), "
      "e.g. --row dynamic; in real, only the rows whose \"set/app: row\" name contains it, "
      "e.g. --row \"random/heat2d: diffusion\"")(
      "set", po::value<std::vector<std::string>>(&o.settings)->composing()->value_name("KEY=VALUE"),
      "config for every daemon of every row (repeatable), e.g. node.cpu=auto")(
      "help,h", "show this help");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, d), vm);
    po::notify(vm);
  } catch (const std::exception& e) {
    std::cerr << "drift_testbed: " << e.what() << "\n";
    return 2;
  }
  if (vm.count("help")) {
    std::cout << d;
    return 0;
  }
  for (const auto& part : only) {
    if (part != "fig3" && part != "fig4" && part != "dynamic" && part != "traffic" &&
        part != "grain" && part != "real") {
      std::cerr << "drift_testbed: --only " << part
                << ": expected fig3, fig4, dynamic, traffic, grain or real\n";
      return 2;
    }
  }
  if (port < 1 || port + 40 > 65535) {
    std::cerr << "drift_testbed: --base-port " << port << ": needs 40 free ports above it\n";
    return 2;
  }
  if (!(o.eff_min > 0 && o.eff_min <= 1)) {
    std::cerr << "drift_testbed: --eff-min " << o.eff_min << ": expected a value in (0, 1]\n";
    return 2;
  }
  if (o.cpu_period_ms < 1 || o.cpu_period_ms > 1000) {
    std::cerr << "drift_testbed: --cpu-period-ms " << o.cpu_period_ms
              << ": expected 1 to 1000 (the kernel's limits)\n";
    return 2;
  }
  for (const auto& kv : o.settings) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::cerr << "drift_testbed: --set " << kv << ": expected KEY=VALUE\n";
      return 2;
    }
  }
  o.out_dir = out;
  o.base_config = base;
  o.keep_logs = keep_logs;
  o.base_port = static_cast<std::uint16_t>(port);
  o.only = {only.begin(), only.end()};
  return drift::bench::run(o);
}
