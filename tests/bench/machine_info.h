// Where and how a benchmark ran, for the line under the results' title: date (UTC), cores,
// CPU model (/proc/cpuinfo), build type.
#pragma once

#include <string>

namespace drift::bench {

struct MachineInfo {
  std::string date;  // "2024-05-01 12:34 UTC"
  unsigned cores = 0;
  std::string cpu;  // "unknown" when /proc/cpuinfo says nothing
  std::string build_type;
};

MachineInfo describe_machine(std::string build_type);

// "Run 2024-05-01 12:34 UTC on 2 cores, AMD EPYC (RelWithDebInfo build)".
std::string describe(const MachineInfo& m);

}  // namespace drift::bench
