// What the [worker] keys of driftd's configuration say (docs/architecture.md §11.4, §12): how
// the worker processes that run applications' tasks are started and contained, where the
// executables of applications named in a job are found, and how the executables shipped with
// jobs are cached.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace drift {

struct WorkerSettings {
  // The user workers run as when driftd runs as root: "auto" = the drift system user if there
  // is one, else nobody; "daemon" = driftd's own user. Not root: always driftd's own user.
  std::string user = "auto";
  // Under a root daemon each job's workers run as a user id of their own from this range
  // ("FIRST-LAST"; gid the same number), and worker.user runs only the applications' answers
  // to questions (--drift-query): auto = kDefaultJobUids where this user namespace maps them;
  // off = every job's workers as worker.user.
  std::string job_uids = "auto";
  static constexpr const char* kDefaultJobUids = "2100000000-2100065535";
  int nice = 19;            // 0..19
  bool sched_idle = true;   // SCHED_IDLE: CPU only when nothing else wants it
  // glibc's malloc asks for transparent huge pages (glibc.malloc.hugetlb=1): large states are
  // faulted in and freed in a fraction of the kernel time.
  bool huge_pages = true;
  // Memory a worker may use: bytes, or a share of the machine's memory ("50%"); 0 = no limit.
  // A memory cgroup where driftd may make one, else RLIMIT_AS.
  std::string memory_limit = "50%";
  std::vector<std::string> launcher;  // prefix of the worker's command line, e.g. qemu-s390x -L DIR
  std::vector<std::string> apps_path;  // directories of installed applications, searched in order
  std::uint64_t cache_bytes = 1ull << 30;       // node.data_dir/apps/ kept under this size
  std::uint64_t max_binary_bytes = 256ull << 20;  // largest executable a job may ship
  std::chrono::milliseconds stop_grace{2000};   // a stopped worker is killed after this long
  std::chrono::milliseconds query_timeout{30000};  // `APP --drift-query` must answer within it
};

}  // namespace drift
