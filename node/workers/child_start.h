// Starting a contained child (worker_launch.h's two shapes share it): vfork, then in the child
// only async-signal-safe calls on what the parent prepared — its descriptors placed, its cgroups
// joined, its priority lowered, its user switched, no new privileges, every signal back to its
// default — then exec. vfork, not fork: the daemon may hold hundreds of MB of task state and
// checkpoint copies, and fork copies its page tables (~7 ms of CPU per 500 MB on a fast PC, five
// times that on a node at a fifth of a core, all of it on the network thread) and write-protects
// every page until the child execs; vfork shares the memory and costs ~0.2 ms whatever its size
// (docs/architecture.md §5.1, "Where a late round's time went").
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include <drift/status.h>

namespace drift {

struct Containment;

// Everything the child needs, prepared before vfork: the child allocates nothing and changes
// none of the parent's memory.
struct ChildPlan {
  std::vector<std::string> argv_text;
  std::vector<char*> argv;
  std::vector<char*> envp;
  int binary_fd = -1;
  bool via_launcher = false;  // argv[0] is a launcher that opens the executable at fd 4
  int fds[3] = {-1, -1, -1};  // what becomes 0, 1, 2
  int socket_fd = -1;         // becomes 3 (a worker)
  int procs_fd = -1;          // its memory cgroup's cgroup.procs, or -1
  int cpu_procs_fd = -1;      // the guests' CPU cgroup's cgroup.procs, or -1
  const Containment* c = nullptr;
  bool switch_user = false;  // to uid and gid, with no supplementary groups
  uid_t uid = 0;
  gid_t gid = 0;
};

struct Pipe {
  int read = -1;
  int write = -1;
};

Result<Pipe> make_pipe();
void close_fd(int& fd);

// Starts the child and returns its pid once it runs the executable, or which step of its
// set-up failed and why ("<executable> could not switch user: Operation not permitted").
Result<pid_t> start_child(const ChildPlan& plan, const std::string& executable);

}  // namespace drift
