// The CPU cgroup all of one daemon's worker processes run in, at the lowest weight the kernel
// offers (cpu.idle = 1 where it exists, else cpu.shares = 2 on cgroup v1 or cpu.weight = 1 on
// v2): guest work as a whole yields to the owner's programs and to driftd's own threads, which
// stay at normal priority so heartbeats are never late. Made under driftd's own CPU cgroup, so
// a quota on driftd's cgroup bounds its guests too. On cgroup v2, where a cgroup with children
// that have controllers may hold no process, a daemon alone in its cgroup (a systemd service
// with Delegate=) first moves itself into a leaf "driftd" beside it. Where no such cgroup can
// be made, make() says why and workers rely on nice 19 and SCHED_IDLE alone.
#pragma once

#include <memory>
#include <string>

#include <drift/status.h>

namespace drift {

class GuestCpuGroup {
 public:
  // `name` unique among the live daemons of this machine ("drift-<node>-<pid>-guests").
  static Result<std::shared_ptr<GuestCpuGroup>> make(const std::string& name);
  ~GuestCpuGroup();  // kills what is still in it and removes it
  GuestCpuGroup(const GuestCpuGroup&) = delete;
  GuestCpuGroup& operator=(const GuestCpuGroup&) = delete;

  const std::string& dir() const { return dir_; }
  bool v2() const { return v2_; }
  // "cpu.idle 1 in /sys/fs/cgroup/cpu/drift-1-77-guests", for the log.
  std::string describe() const { return file_ + " " + lowest_ + " in " + dir_; }
  // Its cgroup.procs, opened for a child to write "0" into before it execs.
  int open_procs() const;
  // While the owner takes the machine back and its tasks leave: the group at a normal weight
  // (on), so the workers write their tasks' states out now rather than after the owner's
  // programs, which would leave the tasks here for as long as those run; then back to the
  // lowest weight (off). A failed write is logged; the tasks then leave when they can.
  void lend(bool on) const;

 private:
  GuestCpuGroup(std::string dir, bool v2, std::string file, std::string lowest, std::string normal)
      : dir_(std::move(dir)),
        v2_(v2),
        file_(std::move(file)),
        lowest_(std::move(lowest)),
        normal_(std::move(normal)) {}
  std::string dir_;
  bool v2_ = false;
  std::string file_;    // the weight's file: cpu.idle, cpu.shares or cpu.weight
  std::string lowest_;  // its value for guests
  std::string normal_;  // and while lent (lend)
};

}  // namespace drift
