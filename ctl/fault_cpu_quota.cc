// cgroups with a CPU quota per daemon (fault_cpu_quota.h).
#include "ctl/fault_cpu_quota.h"

#include "ctl/fault_cpu_hogs.h"

#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace drift::ctl {

namespace fs = std::filesystem;

namespace {

Status write_file(const fs::path& file, const std::string& text) {
  std::ofstream out(file);
  out << text << std::flush;
  if (!out) {
    return Status::error("cannot write '" + text + "' to " + file.string() + ": " +
                         std::strerror(errno));
  }
  return Status::ok();
}

bool v2_has_cpu(const fs::path& root) {
  std::ifstream in(root / "cgroup.controllers");
  std::string word;
  while (in >> word) {
    if (word == "cpu") return true;
  }
  return false;
}

// Which hierarchy has the cpu controller: v1's own mount, or v2 (alone or as "unified").
Result<std::pair<fs::path, bool>> cpu_hierarchy() {
  if (::geteuid() != 0) {
    return Status::error("cpu quotas need root (they are cgroups); run the scenario as root");
  }
  if (fs::exists("/sys/fs/cgroup/cpu/cpu.cfs_quota_us")) {
    return std::pair<fs::path, bool>{"/sys/fs/cgroup/cpu", false};
  }
  for (const char* p : {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"}) {
    if (v2_has_cpu(p)) return std::pair<fs::path, bool>{p, true};
  }
  return Status::error("no cgroup cpu controller: neither /sys/fs/cgroup/cpu (v1) nor a v2 "
                       "hierarchy whose cgroup.controllers lists cpu");
}

}  // namespace

long quota_period_us(double cores, long period_us) {
  constexpr long kMinQuotaUs = 1000, kMaxPeriodUs = 1000000;
  long period = std::clamp(period_us, kMinQuotaUs, kMaxPeriodUs);
  if (cores > 0 && cores * static_cast<double>(period) < kMinQuotaUs) {
    period = std::min(kMaxPeriodUs, static_cast<long>(std::ceil(kMinQuotaUs / cores)));
  }
  return period;
}

Status CpuQuotas::available() { return cpu_hierarchy().status(); }

Result<std::unique_ptr<CpuQuotas>> CpuQuotas::create(const std::map<int, double>& cores,
                                                     long period_us) {
  auto hierarchy = cpu_hierarchy();
  if (!hierarchy) return hierarchy.status();
  const auto [base, v2] = *hierarchy;
  if (v2) {
    // The cpu controller must be handed down from the hierarchy's root to our group.
    if (Status s = write_file(base / "cgroup.subtree_control", "+cpu"); !s) return s;
  }
  const fs::path root = base / ("drift-fault-" + std::to_string(::getpid()));
  std::error_code ec;
  fs::create_directory(root, ec);
  if (ec) return Status::error("cannot create the cgroup " + root.string() + ": " + ec.message());
  std::unique_ptr<CpuQuotas> q(new CpuQuotas(root.string(), v2, cores));
  if (v2) {
    if (Status s = write_file(root / "cgroup.subtree_control", "+cpu"); !s) return s;
  }
  for (const auto& [k, c] : cores) {
    if (!(c >= 0.001)) {
      return Status::error("node " + std::to_string(k) + ": a CPU quota of " + std::to_string(c) +
                           " core is below the kernel's smallest (1 ms per second, 0.001 core)");
    }
    const fs::path d = q->dir(k);
    fs::create_directory(d, ec);
    if (ec) return Status::error("cannot create the cgroup " + d.string() + ": " + ec.message());
    const long period = quota_period_us(c, period_us);
    const long quota = std::max(1000L, std::lround(c * static_cast<double>(period)));
    Status s = v2 ? write_file(d / "cpu.max", std::to_string(quota) + " " + std::to_string(period))
                  : write_file(d / "cpu.cfs_period_us", std::to_string(period));
    if (s && !v2) s = write_file(d / "cpu.cfs_quota_us", std::to_string(quota));
    if (!s) return s;
  }
  return q;
}

CpuQuotas::CpuQuotas(std::string root, bool v2, std::map<int, double> cores)
    : root_(std::move(root)), v2_(v2), cores_(std::move(cores)) {}

CpuQuotas::~CpuQuotas() {
  for (const auto& [k, pids] : hogs_) {
    for (pid_t pid : pids) ::kill(pid, SIGKILL), ::waitpid(pid, nullptr, 0);
  }
  // The daemons are down; a cgroup is removable once its last process has gone.
  for (const auto& [k, c] : cores_) {
    for (int tries = 0; tries < 50 && ::rmdir(dir(k).c_str()) != 0 && errno == EBUSY; ++tries) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  ::rmdir(root_.c_str());
}

std::string CpuQuotas::where() const {
  return std::string(v2_ ? "cgroup v2 " : "cgroup v1 ") + root_;
}

std::string CpuQuotas::dir(int k) const { return root_ + "/node" + std::to_string(k); }

std::vector<std::string> CpuQuotas::launcher(int k) const {
  if (!limits(k)) return {};
  return {"/bin/sh", "-c", "echo $$ > '" + dir(k) + "/cgroup.procs' && exec \"$@\"", "sh"};
}

Status CpuQuotas::add(int k, pid_t pid) {
  if (!limits(k)) return Status::ok();
  return write_file(fs::path(dir(k)) / "cgroup.procs", std::to_string(pid));
}

// The hog runs where the node's daemon may (node.cpu binds a daemon under a small quota to one
// CPU): the owner's program competes with it for that CPU as on a PC of its own.
void CpuQuotas::share_cpus(int k, pid_t hog) const {
  std::ifstream procs(fs::path(dir(k)) / "cgroup.procs");
  pid_t daemon = 0;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (procs >> daemon && ::sched_getaffinity(daemon, sizeof set, &set) == 0) {
    ::sched_setaffinity(hog, sizeof set, &set);  // best effort: unbound, it still hogs
  }
}

Status CpuQuotas::hog(int k) {
  if (!limits(k)) {
    return Status::error("hog " + std::to_string(k) + ": node " + std::to_string(k) +
                         " has no cpu quota (set cpu = " + std::to_string(k) + ":CORES)");
  }
  auto pid = spawn_spinner();
  if (!pid) return Status::error("hog: " + pid.error());
  hogs_[k].push_back(*pid);
  share_cpus(k, *pid);
  return add(k, *pid);
}

Status CpuQuotas::stop_hog(int k) {
  auto it = hogs_.find(k);
  if (it == hogs_.end() || it->second.empty()) {
    return Status::error("node " + std::to_string(k) + " has no hog running");
  }
  const pid_t pid = it->second.back();
  it->second.pop_back();
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  return Status::ok();
}

double CpuQuotas::throttled_s(int k) const {
  std::ifstream in(fs::path(dir(k)) / "cpu.stat");
  std::string key;
  long long value = 0;
  while (in >> key >> value) {
    if (key == "throttled_usec") return static_cast<double>(value) / 1e6;  // v2
    if (key == "throttled_time") return static_cast<double>(value) / 1e9;  // v1, ns
  }
  return -1;
}

}  // namespace drift::ctl
