// CPU-hog processes for soak scenarios (`[cluster] cpu_hogs = N`): N forked children that spin
// until stopped, competing with the daemons for the cores as a workstation owner's programs
// would (at `cpu_hogs_nice`, 0 by default: an owner's foreground program). They die with the
// harness (PR_SET_PDEATHSIG) and are killed by the destructor.
#pragma once

#include <sys/types.h>

#include <vector>

#include <drift/status.h>

namespace drift::ctl {

// One busy-looping child at nice `nice` (it dies with this process); kill and reap it when done.
Result<pid_t> spawn_spinner(int nice = 0);

class CpuHogs {
 public:
  CpuHogs() = default;
  ~CpuHogs();
  CpuHogs(const CpuHogs&) = delete;
  CpuHogs& operator=(const CpuHogs&) = delete;

  Status start(int count, int nice = 0);
  void stop();

 private:
  std::vector<pid_t> pids_;
};

}  // namespace drift::ctl
