// Busy-looping child processes (fault_cpu_hogs.h).
#include "ctl/fault_cpu_hogs.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace drift::ctl {

namespace {

[[noreturn]] void spin(pid_t parent) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(0);
  volatile unsigned long x = 0;
  for (;;) x = x + 1;
}

}  // namespace

Result<pid_t> spawn_spinner(int nice) {
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) return Status::error("fork failed: " + std::string(std::strerror(errno)));
  if (pid == 0) spin(parent);
  // Set here, not in the child, so that it holds once this returns.
  if (nice != 0 && ::setpriority(PRIO_PROCESS, static_cast<id_t>(pid), nice) != 0) {
    const int error = errno;
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    return Status::error("nice " + std::to_string(nice) + ": " + std::strerror(error));
  }
  return pid;
}

CpuHogs::~CpuHogs() { stop(); }

Status CpuHogs::start(int count, int nice) {
  for (int i = 0; i < count; ++i) {
    auto pid = spawn_spinner(nice);
    if (!pid) return Status::error("cpu_hogs: " + pid.error());
    pids_.push_back(*pid);
  }
  return Status::ok();
}

void CpuHogs::stop() {
  for (pid_t pid : pids_) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
  }
  pids_.clear();
}

}  // namespace drift::ctl
