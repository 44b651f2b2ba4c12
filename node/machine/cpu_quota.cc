#include "node/machine/cpu_quota.h"

#include <charconv>
#include <filesystem>

#include "node/machine/proc_file.h"

namespace drift {

namespace {

std::optional<long long> number(std::string_view s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.remove_suffix(1);
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  long long v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// A kernel file's text, empty when it cannot be read.
std::string kernel_text(const std::filesystem::path& p) {
  return read_text(p.string()).value_or("");
}

// A v1 "cpu" controller among a line's comma-separated list ("cpu,cpuacct").
bool has_cpu_controller(std::string_view list) {
  while (!list.empty()) {
    const auto comma = list.find(',');
    if (list.substr(0, comma) == "cpu") return true;
    if (comma == std::string_view::npos) break;
    list.remove_prefix(comma + 1);
  }
  return false;
}

}  // namespace

std::optional<CgroupPath> cpu_cgroup_of(std::string_view text) {
  std::optional<CgroupPath> v2;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    const auto a = line.find(':');
    const auto b = a == std::string_view::npos ? a : line.find(':', a + 1);
    if (b == std::string_view::npos) continue;
    const std::string_view controllers = line.substr(a + 1, b - a - 1);
    const std::string path(line.substr(b + 1));
    if (path.empty() || path.front() != '/') continue;
    if (has_cpu_controller(controllers)) return CgroupPath{false, path};
    if (line.substr(0, a) == "0" && controllers.empty()) v2 = CgroupPath{true, path};
  }
  return v2;
}

std::optional<double> parse_cpu_max(std::string_view text) {
  const auto space = text.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  auto quota = number(text.substr(0, space));
  auto period = number(text.substr(space + 1));
  if (!quota || !period || *quota <= 0 || *period <= 0) return std::nullopt;  // "max": none
  return static_cast<double>(*quota) / static_cast<double>(*period);
}

std::optional<double> parse_cfs_quota(std::string_view quota_us, std::string_view period_us) {
  auto quota = number(quota_us);
  auto period = number(period_us);
  if (!quota || !period || *quota <= 0 || *period <= 0) return std::nullopt;  // -1: none
  return static_cast<double>(*quota) / static_cast<double>(*period);
}

std::optional<CpuCgroupDir> cpu_cgroup_dir(const std::string& root) {
  namespace fs = std::filesystem;
  auto cgroup = cpu_cgroup_of(kernel_text("/proc/self/cgroup"));
  if (!cgroup) return std::nullopt;
  // v1 mounts the controller as cpu,cpuacct (with cpu a link to it) or cpu alone.
  fs::path base = root;
  if (!cgroup->v2) {
    std::error_code ec;
    base = fs::exists(fs::path(root) / "cpu", ec) ? fs::path(root) / "cpu"
                                                  : fs::path(root) / "cpu,cpuacct";
  }
  return CpuCgroupDir{cgroup->v2, base.string(),
                      (base / fs::path(cgroup->path).relative_path()).string()};
}

std::optional<double> cpu_quota_cores(const std::string& root) {
  namespace fs = std::filesystem;
  auto cgroup = cpu_cgroup_dir(root);
  if (!cgroup) return std::nullopt;
  const fs::path base = cgroup->mount;
  std::optional<double> least;
  for (fs::path dir = cgroup->dir;; dir = dir.parent_path()) {
    const std::optional<double> here =
        cgroup->v2 ? parse_cpu_max(kernel_text(dir / "cpu.max"))
                   : parse_cfs_quota(kernel_text(dir / "cpu.cfs_quota_us"),
                                     kernel_text(dir / "cpu.cfs_period_us"));
    if (here && (!least || *here < *least)) least = here;
    if (dir == base || dir.parent_path() == dir || !dir.string().starts_with(base.string())) break;
  }
  return least;
}

}  // namespace drift
