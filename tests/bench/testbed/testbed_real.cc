// The real-CPU testbed (testbed_real.h).
#include "tests/bench/testbed/testbed_real.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <numeric>
#include <random>
#include <sstream>
#include <thread>

#include "ctl/fault_cpu_quota.h"
#include "tests/bench/testbed/svg_plot.h"
#include "tests/bench/testbed/testbed_metrics.h"

namespace drift::bench {

namespace {

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

struct App {
  std::string key;  // "particles", "heat2d"
  JobSpec spec;
};

std::vector<App> apps(bool quick) {
  JobSpec particles;
  particles.app = "particles";
  particles.tasks = quick ? 48 : 160;
  particles.steps = quick ? 15 : 100;
  particles.params = {{"cells", "3200"}, {"particles", quick ? "1000000" : "4000000"}};
  particles.runtime = {{"placement", "even"}};
  JobSpec heat = particles;
  heat.app = "heat2d";
  heat.tasks = quick ? 16 : 32;
  heat.steps = quick ? 40 : 300;
  heat.params = {{"size", quick ? "1024x1024" : "4096x4096"}};
  return {{"particles", particles}, {"heat2d", heat}};
}

struct RatioSet {
  std::string key;
  std::string title;
  std::vector<double> ratios;
};

std::vector<RatioSet> ratio_sets(bool quick) {
  if (quick) return {{"seed", "seed 000's speeds 4.4, 13, 39", {4.4, 13, 39}}};
  std::mt19937 random(2026);
  std::uniform_real_distribution<double> speed(1, 12);
  std::vector<double> drawn(8);
  for (double& s : drawn) s = std::round(speed(random) * 10) / 10;
  return {{"seed", "seed 000's speeds without its slowest (4.4 … 39)",
           {4.4, 6, 6, 6, 6.8, 8.6, 13, 38, 39}},
          {"random", "a random set (seed 2026, speeds 1-12)", drawn}};
}

struct RealRow {
  std::string name;
  TestbedRow row;
  RowResult result;
  double steady = 0;
  std::uint64_t moved_after = 0;
  std::uint64_t rounds = 0;
  double share_error = 0;
};

RealRow run(const TestbedSetup& setup, std::string name, const std::string& strategy,
            const std::vector<double>& quotas, const JobSpec& spec) {
  RealRow r;
  r.name = std::move(name);
  r.row.name = r.name;
  r.row.strategy = strategy;
  r.row.quotas = quotas;
  r.row.job = spec;
  std::cout << "- " << r.name << " (" << quotas.size() << " daemons)" << std::endl;
  r.result = run_row(setup, r.row);
  if (!r.result.error.empty()) return r;
  r.steady = steady_step(r.result.step_s);
  const std::size_t converged = converged_step(r.result.step_s, r.steady, 0.15);
  const auto ends = step_ends(r.result.step_s);
  std::vector<std::pair<double, std::uint64_t>> arrivals;
  for (const auto& s : r.result.samples) arrivals.emplace_back(s.t, s.migrations_in);
  if (!ends.empty()) {
    r.moved_after = growth_after(arrivals, converged < ends.size() ? ends[converged] : ends.back());
  }
  if (!r.result.samples.empty()) {
    r.rounds = r.result.samples.back().balance_rounds_max;
    r.share_error = worst_share_error(r.result.samples.back().capacity, quotas);
  }
  std::cout << "  steady step " << fixed(r.steady * 1000, 1) << " ms, "
            << r.result.migrations << " migrations" << std::endl;
  return r;
}

std::string shares(const std::vector<double>& capacity, const std::vector<double>& quotas) {
  const double cap_sum = std::accumulate(capacity.begin(), capacity.end(), 0.0);
  const double quota_sum = std::accumulate(quotas.begin(), quotas.end(), 0.0);
  std::string out;
  for (std::size_t i = 0; i < quotas.size(); ++i) {
    const double c = i < capacity.size() && cap_sum > 0 ? capacity[i] / cap_sum : 0;
    out += (i ? ", " : "") + fixed(100 * c, 1) + "/" + fixed(100 * quotas[i] / quota_sum, 1);
  }
  return out;
}

}  // namespace

std::vector<double> scaled_quotas(const std::vector<double>& ratios, double total, double ceiling) {
  const double sum = std::accumulate(ratios.begin(), ratios.end(), 0.0);
  std::vector<double> out;
  for (double r : ratios) out.push_back(sum > 0 ? std::min(ceiling, r / sum * total) : 0);
  return out;
}

double worst_share_error(const std::vector<double>& capacity, const std::vector<double>& quotas) {
  const double cap_sum = std::accumulate(capacity.begin(), capacity.end(), 0.0);
  const double quota_sum = std::accumulate(quotas.begin(), quotas.end(), 0.0);
  if (!(cap_sum > 0) || !(quota_sum > 0)) return 0;
  double worst = 0;
  for (std::size_t i = 0; i < quotas.size(); ++i) {
    const double want = quotas[i] / quota_sum;
    const double got = i < capacity.size() ? capacity[i] / cap_sum : 0;
    worst = std::max(worst, std::abs(got - want) / want);
  }
  return worst;
}

RealTestbedOutcome real_cpu_testbed(const TestbedSetup& setup, bool quick,
                                    const std::filesystem::path& out_dir) {
  RealTestbedOutcome out;
  std::ostringstream md;
  md << "## Real CPUs: daemons under CPU quotas, no emulation\n\n";
  if (Status st = ctl::CpuQuotas::available(); !st) {
    md << "SKIPPED: " << st.message() << " (run as root on a machine with a cpu controller).\n\n";
    out.markdown = md.str();
    return out;
  }
  const double cores = std::max(1u, std::thread::hardware_concurrency());
  const double total = 0.875 * cores;  // 1.75 of 2 cores: the machine keeps some for the rest
  md << "Each daemon in a cgroup of its own with a CPU quota (" << setup.cpu_period_us / 1000
     << " ms period), one worker, balance.capacity = dynamic; the quotas in proportion to the set's "
        "speeds, summing to "
     << fixed(total, 2) << " cores. *Control*: the same daemons with equal quotas of the same "
        "total, balanced. *% of control*: the control's steady step / the row's. *Shares*: "
        "each node's advertised capacity share / its quota share, in %, at the end of the run "
        "(target: within ±20 %).\n\n";
  for (const RatioSet& set : ratio_sets(quick)) {
    const std::vector<double> quotas = scaled_quotas(set.ratios, total, 1.0);
    const std::vector<double> equal(quotas.size(), total / static_cast<double>(quotas.size()));
    md << "### " << set.title << "\n\nQuotas (cores): ";
    for (std::size_t i = 0; i < quotas.size(); ++i) md << (i ? ", " : "") << fixed(quotas[i], 3);
    md << ".\n\n";
    for (const App& app : apps(quick)) {
      std::vector<RealRow> rows;
      rows.push_back(run(setup, app.key + ": no balancing", "none", quotas, app.spec));
      rows.push_back(run(setup, app.key + ": diffusion", "diffusion", quotas, app.spec));
      rows.push_back(run(setup, app.key + ": control (equal quotas)", "diffusion", equal, app.spec));
      const double control = rows.back().steady;
      md << "| " << app.key << " | steady step | % of control | migrations (after convergence) "
            "| rounds | worst share error | shares (advertised/quota, %) |\n"
            "|---|---:|---:|---:|---:|---:|---|\n";
      for (const RealRow& r : rows) {
        if (!r.result.error.empty()) {
          out.errors.push_back(set.key + ", " + r.name + ": " + r.result.error);
          md << "| " << r.name << " | ERROR: " << r.result.error.substr(0, 200) << " ||||||\n";
          continue;
        }
        const double pct = r.steady > 0 ? 100 * control / r.steady : 0;
        md << "| " << r.name << " | " << fixed(r.steady * 1000, 1) << " ms | " << fixed(pct, 0)
           << " % | " << r.result.migrations << " (" << r.moved_after << ") | " << r.rounds
           << " | " << fixed(100 * r.share_error, 0) << " % | "
           << (r.result.samples.empty() ? "" : shares(r.result.samples.back().capacity, r.row.quotas))
           << " |\n";
      }
      const RealRow& diffusion = rows[1];
      if (diffusion.result.error.empty() && rows[2].result.error.empty()) {
        const double pct = 100 * control / diffusion.steady;
        md << "\nTargets, " << set.key << " / " << app.key << ": diffusion ≥ 90 % of the control: **"
           << fixed(pct, 0) << " % — " << (pct >= 90 ? "met" : "NOT met")
           << "**; capacities within ±20 % of the quota shares: **"
           << fixed(100 * diffusion.share_error, 0) << " % — "
           << (diffusion.share_error <= 0.2 ? "met" : "NOT met")
           << "**; no tasks moved after convergence: **" << diffusion.moved_after << " — "
           << (diffusion.moved_after == 0 ? "met" : "NOT met") << "**.\n\n";
        if (pct < 90) out.missed.push_back(set.key + "/" + app.key + ": diffusion at " + fixed(pct, 0) + " % of control");
        if (diffusion.share_error > 0.2) out.missed.push_back(set.key + "/" + app.key + ": capacity shares off by " + fixed(100 * diffusion.share_error, 0) + " %");
        if (diffusion.moved_after > 0) out.missed.push_back(set.key + "/" + app.key + ": tasks moved after convergence");
      }
      Plot p{set.title + ", " + app.key + ": step time", "step", "step time (s)", true, {}};
      for (const RealRow& r : rows) {
        PlotSeries s{r.name, {}, false};
        for (std::size_t i = 0; i < r.result.step_s.size(); ++i) {
          s.points.emplace_back(static_cast<double>(i + 1), r.result.step_s[i]);
        }
        p.series.push_back(std::move(s));
      }
      const std::string file = "testbed-real-" + set.key + "-" + app.key + ".svg";
      std::ofstream(out_dir / file) << render_svg(p);
      md << "![" << p.title << "](" << file << ")\n\n";
    }
  }
  out.markdown = md.str();
  return out;
}

}  // namespace drift::bench
