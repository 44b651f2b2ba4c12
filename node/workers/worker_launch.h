// Starting an application's executable on the owner's PC, contained (docs/architecture.md,
// "Workers"): as an unprivileged user (when driftd is root), at idle CPU priority (nice and
// SCHED_IDLE, and all of them in one CPU cgroup at the lowest weight), under a memory limit (its own memory cgroup, else RLIMIT_AS), with no new
// privileges, in a session of its own, killed if driftd dies, with only the descriptors it needs.
// Two shapes: a worker (the daemon's socket as fd 3, stdout and stderr into one pipe) and a query
// (stdin, stdout and stderr pipes). The executable is opened by driftd and run from that
// descriptor, so a cache directory the worker's user cannot read is no obstacle. A launch that
// fails before the program runs says which step failed and why.
#pragma once

#include <asio.hpp>
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <drift/status.h>
#include "node/config/worker_settings.h"
#include "node/workers/guest_cpu_group.h"
#include "node/workers/job_uids.h"
#include "node/workers/memory_cgroup.h"

namespace drift {

// What every launch shares, resolved once from [worker] at start.
struct Containment {
  bool switch_user = false;
  uid_t uid = 0;
  gid_t gid = 0;
  std::string user;  // for the log: "nobody (65534)"
  // Each job's workers a uid of their own from this range (job_uids.h), when driftd is root and
  // worker.job_uids allows; `uid`/`gid` then run the applications' answers to questions only.
  std::optional<UidRange> job_uids;
  int nice = 19;
  bool sched_idle = true;
  bool huge_pages = true;  // GLIBC_TUNABLES=glibc.malloc.hugetlb=1 in its environment
  std::uint64_t memory_limit = 0;       // bytes; 0: none
  std::optional<MemoryCgroups> cgroups;  // else RLIMIT_AS
  std::shared_ptr<GuestCpuGroup> cpu_group;  // none: nice and SCHED_IDLE alone
  std::string summary;                   // one line for the log
};

// `memory_bytes` is the machine's memory (for "50%"); `tag` names this daemon's cgroups
// ("drift-<node>-<pid>"; empty: no CPU cgroup). With worker.sched_idle off, workers get no CPU
// cgroup either.
Result<Containment> make_containment(const WorkerSettings& settings, std::uint64_t memory_bytes,
                                     const std::string& tag);

struct LaunchSpec {
  std::string executable;
  std::vector<std::string> launcher;  // run as LAUNCHER... EXECUTABLE ARGS...
  std::vector<std::string> args;
  std::string cgroup_name;  // a memory cgroup of this name, when the containment has them
  std::optional<uid_t> job_uid;  // run as this uid and the gid of the same number (job_uids.h)
};

struct Launched {
  pid_t pid = -1;
  int control_fd = -1;  // worker: the daemon's end of its socket; query: its stdin
  int output_fd = -1;   // query: its stdout
  int stderr_fd = -1;   // its stderr (a worker's stdout too)
  std::string cgroup;   // its memory cgroup's directory, if it has one
};

// The child itself starts on a thread of its own (child_starter.h: while it lowers its priority
// and execs, a starved child must not hold the caller): `started` runs on `io` with its pid once
// it runs the executable, or with which step of its set-up failed and why. Until then the
// Launched's pid is -1; its descriptors are the caller's at once (what is written to them waits
// for the child), and on failure the caller closes them.
using Started = std::function<void(Result<pid_t>)>;
// `APP --drift-worker 3` with the daemon's socket as fd 3.
Result<Launched> launch_worker(asio::io_context& io, const LaunchSpec& spec,
                               const Containment& containment, Started started);
// `APP ARGS` with pipes on stdin, stdout and stderr.
Result<Launched> launch_query(asio::io_context& io, const LaunchSpec& spec,
                              const Containment& containment, Started started);

// "exited with status 3", "was killed by signal 9 (Killed)".
std::string describe_wait_status(int status);

}  // namespace drift
