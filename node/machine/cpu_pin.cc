#include "node/machine/cpu_pin.h"

#include <sched.h>

#include <cerrno>
#include <charconv>
#include <cstring>

namespace drift {

std::optional<CpuSetting> parse_cpu_setting(std::string_view text) {
  if (text == "auto") return CpuSetting{CpuSetting::Kind::kAuto, 0};
  if (text == "any") return CpuSetting{CpuSetting::Kind::kAny, 0};
  int cpu = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), cpu);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || cpu < 0 ||
      cpu >= CPU_SETSIZE) {
    return std::nullopt;
  }
  return CpuSetting{CpuSetting::Kind::kFixed, cpu};
}

Result<std::optional<int>> choose_cpu(const CpuSetting& setting, std::optional<double> quota,
                                      const std::vector<int>& allowed, std::uint32_t node_id) {
  switch (setting.kind) {
    case CpuSetting::Kind::kAny:
      return std::optional<int>();
    case CpuSetting::Kind::kFixed:
      for (int cpu : allowed) {
        if (cpu == setting.cpu) return std::optional<int>(cpu);
      }
      return Status::error("CPU " + std::to_string(setting.cpu) +
                           " is not one this process may run on (" +
                           std::to_string(allowed.size()) + " allowed)");
    case CpuSetting::Kind::kAuto:
      break;
  }
  // Several CPUs and less than one core to use on them: one of them.
  if (!quota || *quota >= 1 || allowed.size() < 2) return std::optional<int>();
  return std::optional<int>(allowed[(node_id == 0 ? 0 : node_id - 1) % allowed.size()]);
}

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> out;
  if (::sched_getaffinity(0, sizeof set, &set) != 0) return out;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) out.push_back(cpu);
  }
  return out;
}

Status pin_this_process(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (::sched_setaffinity(0, sizeof set, &set) != 0) {
    return Status::error("cannot bind to CPU " + std::to_string(cpu) + ": " +
                         std::strerror(errno));
  }
  return Status::ok();
}

}  // namespace drift
