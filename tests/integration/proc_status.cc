#include "tests/integration/proc_status.h"

#include <fstream>
#include <string>

namespace drift::test {

long proc_status_field(pid_t pid, std::string_view field) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with(field)) return std::stol(line.substr(field.size()));
  }
  return -1;
}

}  // namespace drift::test
