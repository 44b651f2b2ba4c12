// A memory cgroup per worker process, so that a worker using more than worker.memory_limit is
// stopped by the kernel without touching driftd or the owner's programs. The cgroups are made
// under driftd's own memory cgroup (cgroup v1's memory controller), or on cgroup v2 under the
// guests' CPU cgroup or a parent that delegates the controller; where driftd may not make one, find() says why and workers fall back to
// RLIMIT_AS. Filesystem calls only; used on the network thread before and after a worker runs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <drift/status.h>

namespace drift {

class MemoryCgroups {
 public:
  // driftd's own memory cgroup, if it may make children there; else the reason it may not. On
  // cgroup v2, `v2_parent` (the guests' CPU cgroup, guest_cpu_group.h) is used instead, so that
  // each worker's memory cgroup sits inside it.
  static Result<MemoryCgroups> find(const std::string& v2_parent = "");

  // Makes `name` under it, limited to `limit_bytes`; returns its directory.
  Result<std::string> make(const std::string& name, std::uint64_t limit_bytes) const;
  // The cgroup's cgroup.procs, opened for a child to write "0" into before it execs.
  static int open_procs(const std::string& dir);
  // Whether the kernel's OOM killer killed a process of the cgroup.
  bool oom_killed(const std::string& dir) const;
  // Kills every process still in it (what a worker left behind).
  static void kill_all(const std::string& dir);
  // Removes it, waiting a moment for killed processes to leave it; logs when it cannot.
  static void remove(const std::string& dir);

  const std::string& base() const { return base_; }
  bool v2() const { return v2_; }

 private:
  MemoryCgroups(std::string base, bool v2) : base_(std::move(base)), v2_(v2) {}
  std::string base_;
  bool v2_ = false;
};

}  // namespace drift
