// Real CPU quotas for the daemons of a fault scenario (`[cluster] cpu = 0.2`, `cpu = 3:0.1`): each
// daemon K whose quota is set runs in a cgroup of its own, DRIFT/nodeK, limited to that many
// cores (cgroup v2 `cpu.max`, or v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us`, whichever the
// machine has). A daemon's workers are its children and stay in its cgroup, as a PC's programs
// share its CPU. `hog K` starts a busy process inside node K's cgroup: the owner starting a
// compile on that PC. Needs root and a writable cpu controller; create() says what is missing.
// Everything is removed by the destructor. Used from one thread (the scheduler's).
#pragma once

#include <sys/types.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <drift/status.h>

namespace drift::ctl {

// The enforcement period for a quota of `cores`: `period_us`, stretched where the quota would
// come to less than the kernel's smallest (1 ms per period; 0.033 core of a 20 ms period would
// silently become 0.05), so every quota is the one asked for. At most the kernel's largest, 1 s.
long quota_period_us(double cores, long period_us);

class CpuQuotas {
 public:
  // Whether quotas can be set here (root, a cpu controller); the error says what is missing.
  static Status available();
  // `cores`: daemon K -> cores (>= 0.001); `period_us`: the enforcement period, stretched per
  // node as quota_period_us says.
  static Result<std::unique_ptr<CpuQuotas>> create(const std::map<int, double>& cores,
                                                   long period_us);
  ~CpuQuotas();
  CpuQuotas(const CpuQuotas&) = delete;
  CpuQuotas& operator=(const CpuQuotas&) = delete;

  // Where the cgroups are, for the report: "cgroup v1 /sys/fs/cgroup/cpu/drift-fault-123".
  std::string where() const;
  bool limits(int k) const { return cores_.count(k) != 0; }
  // The argv prefix that starts a program in node k's cgroup (a shell that moves itself there and
  // execs it), so the daemon and every child it starts run under the quota from the start, also
  // after a restart. Empty for a node without a quota.
  std::vector<std::string> launcher(int k) const;
  // A busy process in node k's cgroup (a daemon without a quota: none, an error); stop_hog ends it.
  Status hog(int k);
  Status stop_hog(int k);
  // CPU time node k's cgroup was throttled for, in seconds (v1 and v2 both report it); -1 unknown.
  double throttled_s(int k) const;

 private:
  CpuQuotas(std::string root, bool v2, std::map<int, double> cores);
  std::string dir(int k) const;
  Status add(int k, pid_t pid);
  void share_cpus(int k, pid_t hog) const;

  std::string root_;
  bool v2_ = false;
  std::map<int, double> cores_;
  std::map<int, std::vector<pid_t>> hogs_;
};

}  // namespace drift::ctl
