// Starting and stopping background processes (the daemons of a local cluster). A spawned process
// gets its own session (setsid), stdin from /dev/null and stdout+stderr appended to a log file, so
// it outlives the driftctl that started it; errors of exec (no such program) are reported to the
// caller through a close-on-exec pipe instead of being lost in the log.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <drift/status.h>

namespace drift::ctl {

struct SpawnSpec {
  std::filesystem::path program;
  std::vector<std::string> args;  // without argv[0]
  std::filesystem::path log_file;
  // Linux PR_SET_PDEATHSIG: the process gets SIGINT when its parent thread exits. For tests, so
  // that a crashed test never leaves daemons behind.
  bool stop_with_parent = false;
};

Result<pid_t> spawn_detached(const SpawnSpec& spec);

// True while the process exists and is not a zombie; reaps it if it is our exited child.
bool process_alive(pid_t pid);
// True when /proc says `pid` runs a program named like `name`, itself or through qemu-user
// (guards against reused pids).
bool process_runs(pid_t pid, const std::string& name);

enum class StopOutcome { kNotRunning, kTerminated, kKilled };
// SIGINT (driftd stops at once; SIGTERM would make it move its tasks away first), then SIGKILL
// if still alive after `grace`; waits (polling) until it is gone.
StopOutcome stop_process(pid_t pid, std::chrono::milliseconds grace);

}  // namespace drift::ctl
