// driftd: the drift daemon. `driftd --config FILE [--key=value ...]`; `driftd --help` lists keys.
#include <malloc.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdint>
#include <iostream>

#include "node/config/config.h"
#include "node/config/secret_exposure.h"
#include "node/daemon.h"
#include "node/machine/cpu_pin.h"
#include "node/machine/cpu_quota.h"
#include "node/service/log.h"
#include "node/workers/worker_launch.h"

namespace {

// Task states of tens of MB are allocated and freed at every migration. Served from the heap and
// kept there after free, they are reused instead of being mapped (and page-faulted) afresh each
// time, which otherwise costs more than copying them. One arena: a worker thread's own arena
// (at most 64 MiB) could not hold them and would map them anew.
void keep_large_buffers() {
  mallopt(M_ARENA_MAX, 1);
  constexpr std::uint64_t kKeep = 512ull << 20;
  const int keep = static_cast<int>(std::min<std::uint64_t>(kKeep, SIZE_MAX / 4));
  mallopt(M_MMAP_THRESHOLD, keep);
  mallopt(M_TRIM_THRESHOLD, keep);
}

// node.cpu (machine/cpu_pin.h): done before any thread starts, so that every thread and worker
// inherits it. What was done, for the log; an error names the setting.
drift::Result<std::string> bind_cpu(const drift::NodeConfig& config) {
  const auto setting = drift::parse_cpu_setting(config.cpu);  // checked with the config
  if (!setting) return drift::Status::error("node.cpu = '" + config.cpu + "' is not a CPU");
  const auto quota = drift::cpu_quota_cores();
  auto cpu = drift::choose_cpu(*setting, quota, drift::allowed_cpus(), config.node_id);
  if (!cpu) {
    return drift::Status::error("node.cpu = " + config.cpu + " (" + config.where("node.cpu") +
                                "): " + cpu.error());
  }
  if (!*cpu) return std::string();
  if (auto st = drift::pin_this_process(**cpu); !st) {
    return drift::Status::error(st.message() + " (node.cpu = " + config.cpu + ", " +
                                config.where("node.cpu") + ")");
  }
  return "runs on CPU " + std::to_string(**cpu) +
         (quota && *quota < 1 ? " (its cgroup allows it " + fmt::format("{:.2f}", *quota) +
                                    " core; node.cpu = " + config.cpu + ")"
                              : " (node.cpu = " + config.cpu + ")");
}

// Not dumpable: a process of driftd's user without CAP_SYS_PTRACE cannot read its memory (the
// cluster secret, the members' keys) with process_vm_readv, /proc/PID/mem or ptrace. That user
// includes its own workers where driftd neither runs as root nor holds CAP_SETUID/CAP_SETGID (a
// user's own local cluster; the Debian package's service gives each job a uid of its own).
// Sanitized builds stay dumpable: LeakSanitizer ptraces its own threads at exit.
void guard_memory() {
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#endif
}

}  // namespace

int main(int argc, char** argv) {
  guard_memory();
  keep_large_buffers();
  auto parsed = drift::parse_driftd_args(argc, argv);
  if (auto* help = std::get_if<drift::ConfigHelp>(&parsed)) {
    std::cout << help->text;
    return 0;
  }
  if (auto* error = std::get_if<drift::ConfigError>(&parsed)) {
    std::cerr << error->message << "\n";
    return 2;
  }
  auto& config = std::get<drift::NodeConfig>(parsed);
  const auto bound = bind_cpu(config);
  if (!bound) {
    std::cerr << "driftd: " << bound.error() << "\n";
    return 2;
  }
  if (auto st = drift::setup_logging(config.log_level, config.log_file, config.name); !st) {
    std::cerr << "driftd: " << st.message() << " (" << config.where("log.file") << ")\n";
    return 2;
  }
  // Writes to a worker or an application's pipe that ended fail with EPIPE, not a signal.
  ::signal(SIGPIPE, SIG_IGN);
  const std::uint64_t memory =
      static_cast<std::uint64_t>(::sysconf(_SC_PHYS_PAGES)) * ::sysconf(_SC_PAGESIZE);
  auto containment = drift::make_containment(
      config.worker, memory,
      "drift-" + std::to_string(config.node_id) + "-" + std::to_string(::getpid()));
  if (!containment) {
    std::cerr << "driftd: " << containment.error() << " (" << config.where("worker.user") << ")\n";
    return 2;
  }
  if (!bound->empty()) spdlog::info("{}", *bound);
  spdlog::info("{}", containment->summary);
  if (auto exposed = drift::exposure_warning(config.secret_file, "cluster.secret_file")) {
    spdlog::warn("{} ({})", *exposed, config.where("cluster.secret_file"));
  }
  try {
    drift::Daemon daemon(std::move(config), *containment);
    if (auto st = daemon.start(); !st) {
      std::cerr << "driftd: " << st.message() << "\n";
      spdlog::error("{}", st.message());
      return 2;
    }
    daemon.run();
    spdlog::info("stopped");
  } catch (const std::exception& e) {
    std::cerr << "driftd: fatal: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
