// The owner-reclaim benchmark (owner_bench.h).
#include "tests/bench/owner/owner_bench.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <sstream>
#include <thread>

#include "ctl/job_client.h"
#include "ctl/owner_client.h"
#include "ctl/status_query.h"
#include "node/machine/machine_stats.h"
#include "tests/bench/bench_cluster.h"
#include "tests/bench/checked_job.h"
#include "tests/bench/raw/cpu_pinning.h"
#include "tests/bench/raw/sample_stats.h"

namespace drift::bench {

namespace fs = std::filesystem;
using WallClock = std::chrono::system_clock;

namespace {

double wall_now() {
  return std::chrono::duration<double>(WallClock::now().time_since_epoch()).count();
}

double mtime_of(const fs::path& p) {
  struct stat st{};
  if (::stat(p.c_str(), &st) != 0) return 0;
  return static_cast<double>(st.st_mtim.tv_sec) + st.st_mtim.tv_nsec * 1e-9;
}

// Runs drift_owner to its end and returns what it printed.
Result<std::string> run_owner(const OwnerBenchConfig& c, const fs::path& activity, int cpu) {
  std::ostringstream cmd;
  cmd << c.owner_exe.string() << " --cpu 1 --duration " << c.owner_s << " --report-every "
      << c.window_s << " --pin " << cpu;
  if (!activity.empty()) cmd << " --activity-file " << activity.string();
  FILE* pipe = ::popen(cmd.str().c_str(), "r");
  if (!pipe) return Status::error("cannot start " + cmd.str());
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
  if (::pclose(pipe) != 0) return Status::error(cmd.str() + " failed: " + out);
  return out;
}

// Node `k` as its own daemon reports itself.
Result<NodeStatus> self_status(const BenchCluster& cluster, int k) {
  auto options = cluster.connect_options(k);
  if (!options) return options.status();
  auto reply = ctl::query_status(*options, std::chrono::seconds(2));
  if (!reply) return reply.status();
  const NodeStatus* n = ctl::find_node(*reply, static_cast<std::uint32_t>(k));
  if (!n) return Status::error("node " + std::to_string(k) + " does not list itself");
  return *n;
}

Status set_owner(const BenchCluster& cluster, int k, OwnerAction action) {
  auto options = cluster.connect_options(k);
  if (!options) return options.status();
  auto reply = ctl::request_owner_action(*options, action,
                                         ctl::Clock::now() + std::chrono::seconds(10));
  return reply ? Status::ok() : reply.status();
}

// Until node 1's view of nodes 2 and 3 shows `state`.
Status wait_peers(const BenchCluster& cluster, OwnerState state) {
  auto options = cluster.connect_options(1);
  if (!options) return options.status();
  const auto deadline = ctl::Clock::now() + std::chrono::seconds(10);
  while (ctl::Clock::now() < deadline) {
    auto reply = ctl::query_status(*options, std::chrono::seconds(2));
    int seen = 0;
    for (const auto& n : reply ? reply->nodes : std::vector<NodeStatus>{}) {
      if (n.member.node_id != 1 && n.load.owner == state) ++seen;
    }
    if (seen == 2) return Status::ok();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // poll interval
  }
  return Status::error(std::string("node 1 does not see nodes 2 and 3 ") + to_string(state));
}

struct Vacate {
  double touch = 0, detected = 0, empty = 0;
  std::string owner_output;
  Status status = Status::ok();
};

// The owner arrives: drift_owner starts (touching the file) while this thread watches node 1.
Vacate measure_vacate(const BenchCluster& cluster, const OwnerBenchConfig& c,
                      const fs::path& activity, int cpu) {
  Vacate v;
  Result<std::string> out = Status::error("not run");
  std::thread owner([&] { out = run_owner(c, activity, cpu); });
  const double give_up = wall_now() + 60;
  while (wall_now() < give_up && (v.detected == 0 || v.empty == 0)) {
    auto n = self_status(cluster, 1);
    const double t = wall_now();
    if (n && n->load.owner != OwnerState::kAvailable && v.detected == 0) v.detected = t;
    if (n && n->load.task_count == 0 && v.empty == 0) v.empty = t;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));  // poll interval
  }
  owner.join();
  v.touch = mtime_of(activity);
  if (!out) v.status = out.status();
  if (out) v.owner_output = *out;
  if (v.empty == 0) v.status = Status::error("node 1 did not empty within 60 s");
  return v;
}

}  // namespace

double mean_rate(const RateWindows& windows, double window_s, double from_s, double to_s) {
  double sum = 0;
  int n = 0;
  for (const auto& [end, rate] : windows) {
    if (end - window_s >= from_s - 1e-9 && end <= to_s) sum += rate, ++n;
  }
  return n ? sum / n : 0;
}

Result<RateWindows> parse_rate_windows(const std::string& text) {
  RateWindows out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    double end = 0, rate = 0;
    if (!(fields >> end >> rate)) return Status::error("drift_owner printed '" + line + "'");
    out.emplace_back(end, rate);
  }
  return out;
}

Result<OwnerBenchResult> run_owner_bench(const OwnerBenchConfig& c) {
  OwnerBenchResult result;
  result.state_bytes = c.state_bytes;
  auto cores = two_cores();
  const int owner_cpu = cores ? cores->first : -1;
  result.cores = cores ? 2 : 0;
  const fs::path activity =
      fs::temp_directory_path() / ("drift-owner-bench-" + std::to_string(::getpid()));
  std::error_code ec;
  fs::remove(activity, ec);

  ctl::LocalClusterOptions options;
  options.extra_args = {"--node.capacity=1", "--balance.capacity=static",
                        "--balance.strategy=none"};
  options.node_args[1] = {"--owner.policy=immediate", "--owner.activity_file=" + activity.string(),
                          "--owner.sessions=false", "--owner.input_devices=false",
                          "--owner.load=false"};
  auto cluster = BenchCluster::start(3, c.base_port, c.base_config, options);
  if (!cluster) return cluster.status();
  if (cores) {
    for (int k = 1; k <= 3; ++k) {
      if (auto st = pin_process((*cluster)->pid(k), k == 1 ? cores->first : cores->second); !st) {
        return st;
      }
    }
  }
  // The unloaded baseline: the same owner process, node 1 idle, no activity file; run before the
  // job and again after it, since the other programs on this host come and go.
  std::vector<double> rates;
  auto baseline = [&]() -> Status {
    auto idle = run_owner(c, {}, owner_cpu);
    if (!idle) return idle.status();
    auto idle_windows = parse_rate_windows(*idle);
    if (!idle_windows) return idle_windows.status();
    for (const auto& w : *idle_windows) rates.push_back(w.second);
    return Status::ok();
  };
  if (auto st = baseline(); !st) return st;
  result.load_average = read_load_average();

  // Every task on node 1: the others are reclaimed while the job is placed, released after.
  for (int k : {2, 3}) {
    if (auto st = set_owner(**cluster, k, OwnerAction::kReclaim); !st) return st;
  }
  if (auto st = wait_peers(**cluster, OwnerState::kReclaimed); !st) return st;
  JobSpec spec = ctl::job_spec("ballast", c.tasks, 3000,
                               {{"state", std::to_string(c.state_bytes / c.tasks)},
                                {"work", std::to_string(c.work_us)}});
  auto connection = (*cluster)->connect(1);
  if (!connection) return connection.status();
  Vacate vacate;
  bool done = false;
  auto on_progress = [&](const JobProgress& p) {
    if (done || p.step < 50) return;
    done = true;
    for (int k : {2, 3}) {
      if (vacate.status) vacate.status = set_owner(**cluster, k, OwnerAction::kRelease);
    }
    if (vacate.status) vacate.status = wait_peers(**cluster, OwnerState::kAvailable);
    if (vacate.status) vacate = measure_vacate(**cluster, c, activity, owner_cpu);
  };
  auto job = run_checked_job(**connection, spec, on_progress, std::chrono::minutes(5));
  fs::remove(activity, ec);
  if (!vacate.status) return vacate.status;
  if (!job) return job.status();
  if (!done) return Status::error("the job ended before the owner came");
  if (auto st = baseline(); !st) return st;
  result.unloaded_rate = median(rates);
  result.detect_s = vacate.detected - vacate.touch;
  result.empty_s = vacate.empty - vacate.touch;
  auto windows = parse_rate_windows(vacate.owner_output);
  if (!windows) return windows.status();
  // Every window that began before the node was empty.
  result.during_rate = mean_rate(*windows, c.window_s, 0, result.empty_s + c.window_s);
  result.after_2s_rate = mean_rate(*windows, c.window_s, 2.0, 1e9);
  return result;
}

}  // namespace drift::bench
