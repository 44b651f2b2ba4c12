// drift_recovery_bench: what fault tolerance costs and how fast it acts (issue 5's targets).
//  1. Checkpoint overhead: heat2d 4096x4096 on 4 daemons with checkpoints every 5 s against the
//     same job without checkpoints, runs interleaved, median wall times compared (<= 5 %); and
//     the same with the copies also on disk (checkpoint.disk), on a second cluster.
//  2. Crash detection and recovery: heat2d with 64 MB of task state in all on 4 daemons,
//     checkpoints every 10 steps; a worker is SIGKILLed at step 25: detection (kill -> declared
//     dead, from the root's notice), recovery (declared dead -> running again, <= 1 s), steps
//     done again (<= one interval), checksum against the serial reference. Repeated, medians.
// Writes tests/bench/results/recovery.md. --quick: small sizes, one repetition (a smoke test).
#include <signal.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "ctl/job_client.h"
#include "tests/bench/bench_cluster.h"
#include "tests/bench/checked_job.h"

namespace drift::bench {
namespace {

using namespace std::chrono_literals;

struct Options {
  bool quick = false;
  std::uint16_t base_port = 18700;
  std::filesystem::path out = std::filesystem::path(DRIFT_SOURCE_DIR) / "tests/bench/results";
};

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// conf/local.conf without balancing; `disk`: checkpoint copies also on disk.
std::filesystem::path base_config(const std::filesystem::path& dir, bool disk = false) {
  std::filesystem::create_directories(dir);
  const auto path = dir / (disk ? "recovery-bench-disk.conf" : "recovery-bench.conf");
  std::ifstream in(std::filesystem::path(DRIFT_SOURCE_DIR) / "conf/local.conf");
  std::ofstream out(path);
  out << in.rdbuf() << "\n[balance]\nstrategy = none\n";
  if (disk) out << "[checkpoint]\ndisk = true\n";
  return path;
}

JobSpec heat2d(const std::string& size, std::uint32_t tasks, std::uint64_t steps,
               const std::string& every_steps, const std::string& every_ms) {
  JobSpec spec = ctl::job_spec("heat2d", tasks, steps, {{"size", size}});
  spec.runtime["checkpoint_steps"] = every_steps;
  spec.runtime["checkpoint_ms"] = every_ms;
  return spec;
}

Result<double> timed_run(BenchCluster& cluster, const JobSpec& spec) {
  auto connection = cluster.connect(1);
  if (!connection) return connection.status();
  auto result = run_checked_job(**connection, spec, {}, 600s);
  if (!result) return result.status();
  return result->wall_s;
}

struct Overhead {
  std::vector<double> off, on, disk;
};

Result<Overhead> measure_overhead(const Options& o, const std::filesystem::path& conf,
                                  const std::filesystem::path& disk_conf) {
  auto cluster = BenchCluster::start(4, o.base_port, conf);
  if (!cluster) return cluster.status();
  auto disk_cluster = BenchCluster::start(4, static_cast<std::uint16_t>(o.base_port + 100),
                                          disk_conf);
  if (!disk_cluster) return disk_cluster.status();
  const std::string size = o.quick ? "1024x1024" : "4096x4096";
  const std::uint64_t steps = o.quick ? 100 : 1000;
  const int runs = o.quick ? 1 : 3;
  Overhead r;
  for (int i = 0; i < runs; ++i) {
    for (int variant = 0; variant < 3; ++variant) {  // off, in memory, also on disk
      const bool on = variant > 0;
      const JobSpec spec = heat2d(size, 16, steps, "0", on ? (o.quick ? "500" : "5000") : "0");
      auto wall = timed_run(variant == 2 ? **disk_cluster : **cluster, spec);
      if (!wall) return wall.status();
      (variant == 0 ? r.off : variant == 1 ? r.on : r.disk).push_back(*wall);
      std::fprintf(stderr, "  overhead run %d, checkpoints %s: %.3f s\n", i + 1,
                   variant == 0 ? "off" : variant == 1 ? "in memory" : "also on disk", *wall);
    }
  }
  return r;
}

struct Crash {
  double detection_s = 0, recovery_s = 0;
  std::uint64_t recomputed = 0;
};

Result<Crash> crash_once(const Options& o, const std::filesystem::path& conf, int round) {
  auto cluster = BenchCluster::start(4, static_cast<std::uint16_t>(o.base_port + 10 * (round + 1)),
                                     conf);
  if (!cluster) return cluster.status();
  auto connection = (*cluster)->connect(1);
  if (!connection) return connection.status();
  // 2900 x 2900 cells of 8 bytes: about 64 MB of task state in all.
  const JobSpec spec = heat2d(o.quick ? "1024x1024" : "2900x2900", 8, o.quick ? 60 : 120, "10", "0");
  const int victim = 3;
  ctl::Clock::time_point killed{};
  std::optional<JobNotice> notice;
  ctl::Clock::time_point noticed{};
  auto result = run_checked_job(
      **connection, spec,
      [&](const JobProgress& p) {
        if (p.step >= 25 && killed == ctl::Clock::time_point{}) {
          ::kill((*cluster)->pid(victim), SIGKILL);
          killed = ctl::Clock::now();
        }
      },
      300s,
      [&](const JobNotice& n) {
        if (n.kind != JobNoticeKind::kRecovered || notice) return;
        notice = n;
        noticed = ctl::Clock::now();
      });
  if (!result) return result.status();
  if (!notice) return Status::error("the job finished without a recovery notice");
  Crash c;
  c.recovery_s = notice->recovery_s;
  c.detection_s = std::chrono::duration<double>(noticed - killed).count() - notice->recovery_s;
  c.recomputed = notice->steps_recomputed;
  std::fprintf(stderr, "  crash %d: detected after %.3f s, running again %.3f s later, %llu steps "
               "again\n", round + 1, c.detection_s, c.recovery_s,
               static_cast<unsigned long long>(c.recomputed));
  return c;
}

int run(const Options& o) {
  const auto dir = std::filesystem::temp_directory_path() / "drift-recovery-bench";
  const auto conf = base_config(dir);
  const auto disk_conf = base_config(dir, /*disk=*/true);
  std::fprintf(stderr, "checkpoint overhead (heat2d %s, 4 daemons)\n",
               o.quick ? "1024x1024" : "4096x4096");
  auto overhead = measure_overhead(o, conf, disk_conf);
  if (!overhead) return std::fprintf(stderr, "error: %s\n", overhead.error().c_str()), 1;
  std::vector<Crash> crashes;
  const int rounds = o.quick ? 1 : 5;
  std::fprintf(stderr, "crash of a worker (64 MB of task state, checkpoint every 10 steps)\n");
  for (int i = 0; i < rounds; ++i) {
    auto c = crash_once(o, conf, i);
    if (!c) return std::fprintf(stderr, "error: %s\n", c.error().c_str()), 1;
    crashes.push_back(*c);
  }
  const double off = median(overhead->off), on = median(overhead->on);
  const double disk = median(overhead->disk);
  std::vector<double> det, rec, again;
  for (const Crash& c : crashes) {
    det.push_back(c.detection_s);
    rec.push_back(c.recovery_s);
    again.push_back(static_cast<double>(c.recomputed));
  }
  std::ostringstream md;
  char line[512];
  md << "# Fault tolerance: checkpoint overhead, detection and recovery\n\n"
     << "`build/bin/drift_recovery_bench" << (o.quick ? " --quick" : "")
     << "` on this machine (2 cores, 4 daemons on loopback, 100 ms heartbeats).\n\n"
     << "| measure | ours | baseline (same run) | ratio / figure | target |\n|---|---:|---:|---:|---|\n";
  std::snprintf(line, sizeof line,
                "| heat2d %s, wall time with a checkpoint every 5 s | %.3f s | %.3f s without | "
                "%+.1f %% | <= 5 %% |\n",
                o.quick ? "1024x1024" : "4096x4096", on, off, 100 * (on / off - 1));
  md << line;
  std::snprintf(line, sizeof line,
                "| the same, copies also on disk (checkpoint.disk) | %.3f s | %.3f s without | "
                "%+.1f %% | (optional; not in the target) |\n",
                disk, off, 100 * (disk / off - 1));
  md << line;
  std::snprintf(line, sizeof line,
                "| crash detected (kill -> declared dead), median of %zu | %.3f s | | | <= 1 s |\n",
                crashes.size(), median(det));
  md << line;
  std::snprintf(line, sizeof line,
                "| recovery, 64 MB of state (declared dead -> running), median | %.3f s | | | "
                "<= 1 s |\n",
                median(rec));
  md << line;
  std::snprintf(line, sizeof line,
                "| steps done again, checkpoint every 10 steps (max) | %.0f | | | <= 10 (+1 "
                "unacknowledged) |\n",
                *std::max_element(again.begin(), again.end()));
  md << line << "\nEvery job's checksum equalled the serial reference's.\n";
  std::cout << md.str();
  if (!o.quick) {
    std::filesystem::create_directories(o.out);
    std::ofstream(o.out / "recovery.md") << md.str();
  }
  return 0;
}

}  // namespace
}  // namespace drift::bench

int main(int argc, char** argv) {
  drift::bench::Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") {
      o.quick = true;
    } else if (a == "--base-port" && i + 1 < argc) {
      o.base_port = static_cast<std::uint16_t>(std::stoi(argv[++i]));
    } else if (a == "--help" || a == "-h") {
      std::cout << "Usage: drift_recovery_bench [--quick] [--base-port P]\n"
                   "Measures checkpoint overhead (heat2d 4096x4096, 5 s interval), crash "
                   "detection and recovery time (64 MB of task state) on 4 local daemons; writes "
                   "tests/bench/results/recovery.md (not with --quick).\n";
      return 0;
    } else {
      std::cerr << "drift_recovery_bench: unknown argument '" << a << "' (see --help)\n";
      return 2;
    }
  }
  return drift::bench::run(o);
}
