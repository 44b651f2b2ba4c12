// Where and how a benchmark ran, for the line under the results' title: date (UTC), cores,
// CPU model (/proc/cpuinfo), build type, and the commit of the source tree it was built from.
#pragma once

#include <string>

namespace drift::bench {

struct MachineInfo {
  std::string date;  // "2024-05-01 12:34 UTC"
  unsigned cores = 0;
  std::string cpu;  // "unknown" when /proc/cpuinfo says nothing
  std::string build_type;
  std::string commit;  // `git describe --always --dirty` of the source tree; "unknown" without git
};

MachineInfo describe_machine(std::string build_type, const std::string& source_dir);

// "Run 2024-05-01 12:34 UTC on 2 cores (nproc), CPU AMD EPYC, RelWithDebInfo build of commit
// 1a2b3c4".
std::string describe(const MachineInfo& m);

}  // namespace drift::bench
