// Which executable a job runs on a node of each architecture: a job of an installed application
// names it only (JobSpec::app; every node runs its own installed one); a job of the user's own
// executable carries its SHA-256 per architecture in JobSpec::runtime as "binary.ARCH" = hash,
// and a node of an architecture it has none for takes no task of it. Pure.
#pragma once

#include <map>
#include <string>

#include <drift/status.h>
#include <drift/types.h>

namespace drift {

inline constexpr const char* kBinaryKeyPrefix = "binary.";

// arch -> hash; empty for an installed application. The error names the bad key or value.
Result<std::map<std::string, std::string>> job_binaries(const JobSpec& spec);

// Whether a node of `arch` can run the job (an installed application: any node).
bool runs_on(const JobSpec& spec, const std::string& arch);

}  // namespace drift
