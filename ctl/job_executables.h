// The executables a job of the user's own application ships, one per architecture: the one
// `driftctl run PATH` names (its architecture read from its ELF header) and those of
// `--binary ARCH=FILE`, each checked to be an executable for that architecture. They travel
// named by their SHA-256 (JobSpec::runtime "binary.ARCH"), and are uploaded to the daemon the
// job is submitted to unless it has them already.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include <drift/status.h>
#include <drift/types.h>
#include "ctl/client_connection.h"

namespace drift::ctl {

struct JobExecutable {
  std::string arch;
  std::string path;
  std::string sha256;
  std::uint64_t size = 0;
};

// `binaries` are the values of --binary, "ARCH=FILE". The error names the bad one.
Result<std::vector<JobExecutable>> job_executables(const std::string& main_path,
                                                   const std::vector<std::string>& binaries);

void add_to_spec(JobSpec& spec, const std::vector<JobExecutable>& executables);

// Offers each to the daemon and sends those it lacks, in pieces of `piece_bytes`.
Status upload_executables(ClientConnection& connection,
                          const std::vector<JobExecutable>& executables,
                          std::uint32_t piece_bytes, std::chrono::milliseconds timeout);

}  // namespace drift::ctl
