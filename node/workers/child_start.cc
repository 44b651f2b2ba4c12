#include "node/workers/child_start.h"

#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iterator>

#include "node/workers/worker_launch.h"

namespace drift {

namespace {

// The step of the child's set-up that failed, with errno, sent to the parent before _exit.
struct ChildError {
  int step = 0;
  int error = 0;
};

constexpr const char* kSteps[] = {
    "set up its descriptors", "join its memory cgroup",    "lower its priority",
    "set SCHED_IDLE",         "limit its address space",   "drop supplementary groups",
    "switch group",           "switch user",               "ask to die with driftd",
    "forbid new privileges",  "change to /",               "start the executable",
    "join the guests' CPU cgroup", "drop its capabilities"};

[[noreturn]] void child_fail(int error_fd, int step) {
  ChildError e{step, errno};
  [[maybe_unused]] ssize_t n = ::write(error_fd, &e, sizeof e);
  ::_exit(127);
}

// Puts `from` at `to`, close-on-exec unless `inherit`.
bool place(int from, int to, bool inherit) {
  if (::dup2(from, to) < 0) return false;
  return inherit || ::fcntl(to, F_SETFD, FD_CLOEXEC) == 0;
}

// Runs in the vfork child, on the parent's memory: no allocation, no write to the parent's data
// (errno, thread-local, is the parent thread's and is not read after a successful vfork).
[[noreturn]] void run_child(const ChildPlan& p, int error_pipe, pid_t parent) {
  // Every signal back to its default before any can be delivered: a handler of the daemon's
  // would run on the daemon's memory. The parent blocked them all around vfork.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig) {
    if (sig != SIGKILL && sig != SIGSTOP) ::sigaction(sig, &dfl, nullptr);
  }
  // Descriptors: 0-2 as planned, 3 the socket, 4 the executable (inherited only for a
  // launcher, which opens it by path), 5 the error pipe, 6 the memory cgroup's cgroup.procs, 7
  // the guests' CPU cgroup's; everything else closed.
  // First everything needed moves above the range it is placed in.
  constexpr int kHigh = 100;
  int error_fd = ::fcntl(error_pipe, F_DUPFD_CLOEXEC, kHigh);
  if (error_fd < 0) ::_exit(127);
  const int binary = ::fcntl(p.binary_fd, F_DUPFD_CLOEXEC, kHigh);
  const int procs = p.procs_fd >= 0 ? ::fcntl(p.procs_fd, F_DUPFD_CLOEXEC, kHigh) : -1;
  const int cpu_procs = p.cpu_procs_fd >= 0 ? ::fcntl(p.cpu_procs_fd, F_DUPFD_CLOEXEC, kHigh) : -1;
  const int sock = p.socket_fd >= 0 ? ::fcntl(p.socket_fd, F_DUPFD_CLOEXEC, kHigh) : -1;
  int moved[3];
  for (int i = 0; i < 3; ++i) moved[i] = ::fcntl(p.fds[i], F_DUPFD_CLOEXEC, kHigh);
  if (binary < 0 || moved[0] < 0 || moved[1] < 0 || moved[2] < 0) child_fail(error_fd, 0);
  for (int i = 0; i < 3; ++i) {
    if (!place(moved[i], i, true)) child_fail(error_fd, 0);
  }
  if (sock >= 0 && !place(sock, 3, true)) child_fail(error_fd, 0);
  if (!place(binary, 4, p.via_launcher)) child_fail(error_fd, 0);
  if (!place(error_fd, 5, false)) child_fail(error_fd, 0);
  error_fd = 5;
  if (procs >= 0 && !place(procs, 6, false)) child_fail(error_fd, 0);
  if (cpu_procs >= 0 && !place(cpu_procs, 7, false)) child_fail(error_fd, 0);
  if (sock < 0) ::close(3);
  if (procs < 0) ::close(6);
  if (cpu_procs < 0) ::close(7);
  if (::syscall(SYS_close_range, 8u, ~0u, 0u) != 0) {
    for (int fd = 8; fd < 4096; ++fd) ::close(fd);
  }
  ::setsid();  // a session of its own: driftd's terminal signals are not its
  if (cpu_procs >= 0 && ::write(7, "0", 1) != 1) child_fail(error_fd, 12);
  if (procs >= 0 && ::write(6, "0", 1) != 1) child_fail(error_fd, 1);
  const Containment& c = *p.c;
  if (::setpriority(PRIO_PROCESS, 0, c.nice) != 0) child_fail(error_fd, 2);
  if (c.sched_idle) {
    struct sched_param param {};
    if (::sched_setscheduler(0, SCHED_IDLE, &param) != 0) child_fail(error_fd, 3);
  }
  if (c.memory_limit > 0 && procs < 0) {  // no cgroup: the address space instead
    struct rlimit limit {static_cast<rlim_t>(c.memory_limit), static_cast<rlim_t>(c.memory_limit)};
    if (::setrlimit(RLIMIT_AS, &limit) != 0) child_fail(error_fd, 4);
  }
  // Not even driftd's ambient capabilities, nor a way back to a better priority.
  ::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  struct rlimit no_nicer {0, 0};
  ::setrlimit(RLIMIT_NICE, &no_nicer);
  // The credentials by system call: glibc's setuid and friends signal every thread of the
  // process they think they are in, which for a vfork child are the parent's; the child is a
  // process of one thread, so the system call alone changes all of it.
  if (p.switch_user) {
    if (::syscall(SYS_setgroups, 0, nullptr) != 0) child_fail(error_fd, 5);
    if (::syscall(SYS_setresgid, p.gid, p.gid, p.gid) != 0) child_fail(error_fd, 6);
    if (::syscall(SYS_setresuid, p.uid, p.uid, p.uid) != 0) child_fail(error_fd, 7);
  }
  // None of driftd's capabilities (a non-root driftd's CAP_SETUID, CAP_SETGID, CAP_KILL
  // survive a switch between two non-zero uids), before the executable runs.
  {
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct none[_LINUX_CAPABILITY_U32S_3] = {};
    if (::syscall(SYS_capset, &header, none) != 0) child_fail(error_fd, 13);
  }
  // After the switch: a change of credentials clears the parent-death signal.
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) child_fail(error_fd, 8);
  if (::getppid() != parent) ::_exit(127);  // driftd is already gone
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) child_fail(error_fd, 9);
  if (::chdir("/") != 0) child_fail(error_fd, 10);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  if (p.via_launcher) {
    ::execve(p.argv[0], p.argv.data(), p.envp.data());
  } else {
    ::syscall(SYS_execveat, 4, "", p.argv.data(), p.envp.data(), AT_EMPTY_PATH);
  }
  child_fail(error_fd, 11);
}

}  // namespace

Result<Pipe> make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    return Status::error(std::string("pipe: ") + std::strerror(errno));
  }
  return Pipe{fds[0], fds[1]};
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

Result<pid_t> start_child(const ChildPlan& plan, const std::string& executable) {
  Result<Pipe> errors = make_pipe();
  if (!errors) return errors.status();
  const pid_t parent = ::getpid();
  sigset_t all, old;
  sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &old);
  const pid_t pid = ::vfork();
  if (pid == 0) run_child(plan, errors->write, parent);
  const int fork_errno = errno;
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  close_fd(errors->write);
  if (pid < 0) {
    close_fd(errors->read);
    return Status::error(std::string("vfork: ") + std::strerror(fork_errno));
  }
  // The child has run the executable (the pipe closed on exec) or failed and said why.
  ChildError e;
  ssize_t n;
  do {
    n = ::read(errors->read, &e, sizeof e);
  } while (n < 0 && errno == EINTR);
  close_fd(errors->read);
  if (n == sizeof e) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    const int step = e.step >= 0 && e.step < static_cast<int>(std::size(kSteps)) ? e.step : 11;
    return Status::error(executable + " could not " + kSteps[step] + ": " +
                         std::strerror(e.error));
  }
  return pid;
}

}  // namespace drift
