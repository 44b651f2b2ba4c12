// Busy-looping child processes (fault_cpu_hogs.h).
#include "ctl/fault_cpu_hogs.h"

#include <signal.h>
#include <sys/prctl.h>
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

CpuHogs::~CpuHogs() { stop(); }

Status CpuHogs::start(int count) {
  const pid_t parent = ::getpid();
  for (int i = 0; i < count; ++i) {
    const pid_t pid = ::fork();
    if (pid < 0) return Status::error("cpu_hogs: fork failed: " + std::string(std::strerror(errno)));
    if (pid == 0) spin(parent);
    pids_.push_back(pid);
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
