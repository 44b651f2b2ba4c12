// The machine a benchmark ran on (machine_info.h).
#include "tests/bench/machine_info.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <thread>

namespace drift::bench {

namespace {

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
  return buf;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("model name")) continue;
    const auto colon = line.find(':');
    if (colon != std::string::npos && colon + 2 <= line.size()) return line.substr(colon + 2);
  }
  return "unknown";
}

// The source tree's commit, "-dirty" with uncommitted changes: the figures' provenance.
std::string commit_of(const std::string& source_dir) {
  const std::string command =
      "git -C '" + source_dir + "' describe --always --dirty --abbrev=7 2>/dev/null";
  FILE* pipe = source_dir.find('\'') == std::string::npos ? popen(command.c_str(), "r") : nullptr;
  if (pipe == nullptr) return "unknown";
  char buf[128] = {};
  const bool read = std::fgets(buf, sizeof buf, pipe) != nullptr;
  pclose(pipe);
  std::string out = read ? buf : "";
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out.empty() ? "unknown" : out;
}

}  // namespace

MachineInfo describe_machine(std::string build_type, const std::string& source_dir) {
  return MachineInfo{utc_now(), std::thread::hardware_concurrency(), cpu_model(),
                     build_type.empty() ? "unknown" : std::move(build_type),
                     commit_of(source_dir)};
}

std::string describe(const MachineInfo& m) {
  return "Run " + m.date + " on " + std::to_string(m.cores) + " cores (nproc), CPU " + m.cpu +
         ", " + m.build_type + " build of commit " + m.commit;
}

}  // namespace drift::bench
