// A pid file: the decimal process id and a newline. `driftctl local up` writes one per daemon;
// `local down` and the integration tests read them back.
#pragma once

#include <sys/types.h>

#include <filesystem>

#include <drift/status.h>

namespace drift::ctl {

Status write_pid_file(const std::filesystem::path& file, pid_t pid);
// The error names the file and what it held when that was not a process id.
Result<pid_t> read_pid_file(const std::filesystem::path& file);

}  // namespace drift::ctl
