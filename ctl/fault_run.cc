// Setting up, scheduling and tearing down one fault run (fault_run.h).
#include "ctl/fault_run.h"

#include <signal.h>
#include <stdlib.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <thread>

#include "ctl/app_executable.h"
#include "ctl/fault_cpu_hogs.h"
#include "ctl/fault_cpu_quota.h"
#include "ctl/fault_injector.h"
#include "ctl/fault_jobs.h"
#include "ctl/fault_network.h"
#include "ctl/fault_observer.h"
#include "ctl/job_client.h"
#include "ctl/local_cluster.h"

namespace fs = std::filesystem;

namespace drift::ctl {

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kSchedulerTick = std::chrono::milliseconds(5);
constexpr auto kObserverInterval = std::chrono::milliseconds(30);

std::atomic<int> g_signal{0};
extern "C" void on_stop_signal(int sig) { g_signal = sig; }

// SIGINT/SIGTERM end the run cleanly (daemons stopped, namespaces removed) instead of killing us.
class StopSignals {
 public:
  StopSignals() {
    g_signal = 0;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    ::sigaction(SIGINT, &sa, &old_int_);
    ::sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopSignals() {
    ::sigaction(SIGINT, &old_int_, nullptr);
    ::sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

Result<std::vector<JobRecord>> with_references(const FaultScenario& s) {
  std::vector<JobRecord> out;
  for (const JobPlan& plan : s.jobs) {
    JobSpec spec = job_spec(plan.app, plan.tasks, plan.steps, plan.params);
    auto outcome = ask_app_about(plan.app, spec, AppQueryKind::kSerial);
    if (!outcome) return Status::error(plan.origin + ": serial reference: " + outcome.error());
    JobRecord r;
    r.plan = plan;
    r.reference = outcome->checksum;
    out.push_back(std::move(r));
  }
  return out;
}

Result<std::string> run_dir(const FaultRunOptions& o) {
  if (!o.dir.empty()) return o.dir;
  std::string pattern = (fs::temp_directory_path() / "drift-fault-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    return Status::error("cannot create a directory like " + pattern);
  }
  return pattern;
}

// Fires the scenario's faults at their times and steps, and undoes timed ones when due.
class Scheduler {
 public:
  Scheduler(const FaultScenario& s, FaultInjector& injector, std::uint64_t seed, bool verbose)
      : s_(s), injector_(injector), rng_(seed), verbose_(verbose), fired_(s.faults.size(), false),
        next_(s.faults.size(), 0) {
    for (std::size_t i = 0; i < s.faults.size(); ++i) {
      if (s.faults[i].when.kind == FaultTrigger::Kind::kEvery) next_[i] = gap(s.faults[i].when);
    }
  }

  void tick(double now, const FaultJobs::Now& job) {
    for (std::size_t i = 0; i < s_.faults.size(); ++i) {
      const FaultTrigger& w = s_.faults[i].when;
      bool due = false;
      if (w.kind == FaultTrigger::Kind::kTime) due = !fired_[i] && now >= w.at_s;
      if (w.kind == FaultTrigger::Kind::kStep) due = !fired_[i] && job.job >= 0 && job.step >= w.step;
      if (w.kind == FaultTrigger::Kind::kEvery && now >= next_[i]) {
        due = true;
        next_[i] = now + gap(w);
      }
      if (due) fire(s_.faults[i], now, job);
      fired_[i] = fired_[i] || due;
    }
    undo_due(now);
  }

  // Undoes the timed faults whose time has come.
  void undo_due(double now) {
    for (auto it = undo_at_.begin(); it != undo_at_.end();) {
      if (now < it->second) {
        ++it;
        continue;
      }
      injector_.undo(faults_[it->first], now);
      say("undone", faults_[it->first]);
      it = undo_at_.erase(it);
    }
  }

  void finish(double now) {
    for (const auto& [index, due] : undo_at_) injector_.undo(faults_[index], now);
    undo_at_.clear();
    injector_.release_all();
  }

  std::vector<InjectedFault>& faults() { return faults_; }

 private:
  double gap(const FaultTrigger& w) {
    return std::uniform_real_distribution<double>(w.every_min_s, w.every_max_s)(rng_);
  }

  void fire(const FaultEntry& e, double now, const FaultJobs::Now& job) {
    InjectedFault f = injector_.inject(e, job.root, job.job_id, now);
    f.job = job.job;
    f.step = job.step;
    if (f.error.empty() && e.action.duration_s > 0) {
      undo_at_.emplace_back(faults_.size(), now + e.action.duration_s);
    }
    faults_.push_back(std::move(f));
    say("injected", faults_.back());
  }

  void say(const char* what, const InjectedFault& f) const {
    if (!verbose_) return;
    std::fprintf(stderr, "fault run: %s '%s' at %.3f s%s%s\n", what, f.text.c_str(),
                 f.undone_s >= 0 ? f.undone_s : f.at_s, f.error.empty() ? "" : ": ",
                 f.error.c_str());
  }

  const FaultScenario& s_;
  FaultInjector& injector_;
  std::mt19937_64 rng_;
  bool verbose_;
  std::vector<bool> fired_;
  std::vector<double> next_;
  std::vector<InjectedFault> faults_;
  std::vector<std::pair<std::size_t, double>> undo_at_;  // fault index, when
};

LocalClusterOptions cluster_options(const FaultScenario& s, const FaultRunOptions& o,
                                    const FaultNetwork* net, const CpuQuotas* quotas) {
  LocalClusterOptions lo;
  lo.driftd = o.driftd;
  lo.stop_with_parent = true;  // the daemons never outlive a crashed harness
  lo.ready_timeout = std::chrono::seconds(30);
  lo.extra_args = s.all_args;
  lo.extra_args.push_back("--test.hooks=true");  // frame faults are set at run time
  lo.node_args = s.node_args;
  for (int k = 1; net && k <= s.nodes; ++k) {
    lo.hosts.push_back(net->host(k));
    lo.launchers[k] = net->launcher(k);
  }
  for (int k = 1; quotas && k <= s.nodes; ++k) {
    const auto in_cgroup = quotas->launcher(k);  // inside the namespace: nsenter first
    lo.launchers[k].insert(lo.launchers[k].end(), in_cgroup.begin(), in_cgroup.end());
  }
  return lo;
}

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// A job that fails fast ends the run before the survivors' status shows the lost node: keep
// watching (undoing timed faults when due) until every node still killed or cut off is shown
// dead, or kSettle passes, so the report has its detection time and the final counters.
void settle(const FaultObserver& observer, Scheduler& scheduler, Clock::time_point t0) {
  constexpr auto kSettle = std::chrono::seconds(5);
  const auto deadline = Clock::now() + kSettle;
  const auto all_seen = [&] {
    for (const auto& f : scheduler.faults()) {
      const bool lost = f.kind == FaultKind::kKill || f.kind == FaultKind::kPartition;
      if (!lost || f.undone_s >= 0 || !f.error.empty()) continue;
      for (int k : f.nodes) {
        if (!observer.seen(k, MemberState::kDead, f.at_s)) return false;
      }
    }
    return true;
  };
  std::this_thread::sleep_for(2 * kObserverInterval);  // one more round of counters
  while (!all_seen() && Clock::now() < deadline) {
    scheduler.undo_due(seconds_since(t0));
    std::this_thread::sleep_for(kObserverInterval);
  }
}

}  // namespace

Result<FaultRunRecord> run_fault_scenario(const FaultScenario& s, const FaultRunOptions& o) {
  auto jobs_planned = with_references(s);
  if (!jobs_planned) return jobs_planned.status();
  StopSignals signals;
  std::unique_ptr<FaultNetwork> net;
  if (s.netns) {
    auto created = FaultNetwork::create(s.nodes);
    if (!created) return created.status();
    net = std::move(*created);
  }
  std::unique_ptr<CpuQuotas> quotas;
  if (!s.cpu_cores.empty()) {
    auto created = CpuQuotas::create(s.cpu_cores, s.cpu_period_us);
    if (!created) return created.status();
    quotas = std::move(*created);
  }
  auto dir = run_dir(o);
  if (!dir) return dir.status();
  FaultRunRecord record;
  if (quotas) record.quotas = quotas->where();
  record.scenario = &s;
  record.dir = *dir;
  record.network = net ? "netns, daemon K at " + net->host(1).substr(0, net->host(1).rfind('.')) +
                             ".K" : "loopback 127.0.0.1";
  LocalCluster cluster(*dir, cluster_options(s, o, net.get(), quotas.get()));
  if (Status st = cluster.up(s.nodes, o.base_port, s.base_config); !st) {
    return Status::error("the scenario's cluster did not come up (logs in " + *dir + "): " +
                         st.message());
  }
  CpuHogs hogs;
  if (Status st = hogs.start(s.cpu_hogs, s.cpu_hogs_nice); !st) record.aborted = st.message();
  std::vector<ConnectOptions> nodes;
  for (int k = 1; k <= s.nodes; ++k) nodes.push_back(*cluster.connect_options(k));
  const auto t0 = Clock::now();
  std::vector<std::chrono::milliseconds> intervals;
  for (int k = 1; k <= s.nodes; ++k) {
    const auto cores = s.cpu_cores.find(k);
    intervals.push_back(observer_interval(
        kObserverInterval, cores == s.cpu_cores.end() ? std::nullopt
                                                      : std::optional<double>(cores->second)));
  }
  FaultObserver observer(nodes, t0, std::move(intervals));
  observer.start();
  FaultInjector injector(cluster, net.get(), quotas.get(), o.seed);
  const std::uint64_t seed = o.seed ? o.seed : static_cast<std::uint64_t>(t0.time_since_epoch().count());
  Scheduler scheduler(s, injector, seed, o.verbose);
  FaultJobs jobs(cluster, std::move(*jobs_planned), s.duration_s, t0);
  jobs.start();
  while (record.aborted.empty()) {
    const auto now = jobs.now();
    if (now.done) break;
    if (g_signal != 0) record.aborted = "stopped by signal " + std::to_string(g_signal.load());
    scheduler.tick(seconds_since(t0), now);
    std::this_thread::sleep_for(kSchedulerTick);  // the scheduler's resolution
  }
  if (!record.aborted.empty()) {
    scheduler.finish(seconds_since(t0));
    cluster.down();  // ends a job still waiting for its daemons
  }
  jobs.join();
  if (record.aborted.empty()) {
    settle(observer, scheduler, t0);
    scheduler.finish(seconds_since(t0));
  }
  observer.stop();
  hogs.stop();
  record.total_s = seconds_since(t0);
  record.jobs = jobs.records();
  record.faults = std::move(scheduler.faults());
  record.sightings = observer.sightings();
  record.counters = observer.counters();
  record.moves = injector.moves();
  for (const auto& [k, cores] : s.cpu_cores) record.throttled_s[k] = quotas->throttled_s(k);
  cluster.down();
  record.dir_kept = o.keep_dir || !o.dir.empty();
  return record;
}

}  // namespace drift::ctl
