// The CPU this process may use under its cgroup's quota (docs/architecture.md §8.1): cgroup v2
// `cpu.max` or v1 `cpu.cfs_quota_us` / `cpu.cfs_period_us`, the smallest along the path from its
// cgroup up to the root (a parent's quota binds its children). A node under a quota of 0.2 core
// gets 0.2 core however fast its cores are, and its computes, timed by the CPU time they got, see
// only the cores' speed: the meter multiplies the two. The parsers are pure; cpu_quota_cores()
// reads /proc/self/cgroup and /sys/fs/cgroup.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace drift {

// The cgroup of this process for the cpu controller, from /proc/self/cgroup's text: v1 (a line
// "N:...cpu...:/path") if there is one, else v2 ("0::/path"). Empty: none found.
struct CgroupPath {
  bool v2 = false;
  std::string path;  // "/drift-fault-1/node3"
};
std::optional<CgroupPath> cpu_cgroup_of(std::string_view proc_self_cgroup);

// Cores allowed by v2 "cpu.max" text ("20000 100000" -> 0.2; "max 100000" -> none).
std::optional<double> parse_cpu_max(std::string_view text);
// Cores allowed by v1 quota and period texts ("4000", "20000" -> 0.2; quota "-1" -> none).
std::optional<double> parse_cfs_quota(std::string_view quota_us, std::string_view period_us);

// This process's cgroup for the cpu controller as a directory ("/sys/fs/cgroup/cpu/foo"), under
// the hierarchy's mount; none if /proc/self/cgroup names none.
struct CpuCgroupDir {
  bool v2 = false;
  std::string mount;
  std::string dir;
};
std::optional<CpuCgroupDir> cpu_cgroup_dir(const std::string& root = "/sys/fs/cgroup");

// The cores this process may use under its cgroups' quotas; none if no quota binds it (or the
// files cannot be read). `root` is the cgroup filesystem's mount point.
std::optional<double> cpu_quota_cores(const std::string& root = "/sys/fs/cgroup");

}  // namespace drift
