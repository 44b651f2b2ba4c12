// CPU pinning for table (b) (cpu_pinning.h).
#include "tests/bench/raw/cpu_pinning.h"

#include <sched.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace drift::bench {

namespace {

cpu_set_t allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) != 0) CPU_SET(0, &set);
  return set;
}

cpu_set_t cpus_for(int cpu) {
  static const cpu_set_t all = allowed_cpus();  // before anything here was pinned
  if (cpu < 0) return all;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  return one;
}

Status set_affinity(pid_t tid, int cpu, const std::string& what) {
  const cpu_set_t set = cpus_for(cpu);
  if (::sched_setaffinity(tid, sizeof set, &set) != 0) {
    return Status::error("cannot pin " + what + " to cpu " + std::to_string(cpu) + ": " +
                         std::strerror(errno));
  }
  return Status::ok();
}

}  // namespace

std::optional<std::pair<int, int>> two_cores() {
  const cpu_set_t set = cpus_for(-1);
  int first = -1;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &set)) continue;
    if (first >= 0) return std::pair{first, cpu};
    first = cpu;
  }
  return std::nullopt;
}

Status pin_process(pid_t pid, int cpu) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path tasks = "/proc/" + std::to_string(pid) + "/task";
  const std::string process = " of process " + std::to_string(pid);
  for (const auto& entry : fs::directory_iterator(tasks, ec)) {
    const pid_t tid = static_cast<pid_t>(std::stol(entry.path().filename().string()));
    if (Status s = set_affinity(tid, cpu, "thread " + std::to_string(tid) + process); !s) return s;
  }
  if (ec) return Status::error("cannot list the threads" + process + ": " + ec.message());
  return Status::ok();
}

Status pin_this_thread(int cpu) { return set_affinity(0, cpu, "this thread"); }

}  // namespace drift::bench
