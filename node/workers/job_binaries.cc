#include "node/workers/job_binaries.h"

#include "node/workers/machine_arch.h"
#include "node/workers/sha256.h"

namespace drift {

Result<std::map<std::string, std::string>> job_binaries(const JobSpec& spec) {
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : spec.runtime) {
    if (!key.starts_with(kBinaryKeyPrefix)) continue;
    const std::string arch = key.substr(std::string(kBinaryKeyPrefix).size());
    if (!known_arch(arch)) return Status::error(key + ": '" + arch + "' is no architecture drift knows");
    if (!valid_sha256(value)) return Status::error(key + " = '" + value + "': not a SHA-256");
    out[arch] = value;
  }
  return out;
}

bool runs_on(const JobSpec& spec, const std::string& arch) {
  auto binaries = job_binaries(spec);
  if (!binaries) return false;
  return binaries->empty() || binaries->count(arch) > 0;
}

}  // namespace drift
