#include "node/workers/worker_launch.h"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

extern char** environ;

namespace drift {

namespace {

// Environment variables a worker keeps: the sanitizers' settings (their builds' tests), and the
// locale. Everything else of driftd's environment stays with driftd.
bool kept_variable(const char* entry) {
  static const char* const kPrefixes[] = {"ASAN_OPTIONS=", "UBSAN_OPTIONS=", "TSAN_OPTIONS=",
                                          "LSAN_OPTIONS=", "LANG=",          "LC_ALL="};
  for (const char* p : kPrefixes) {
    if (std::strncmp(entry, p, std::strlen(p)) == 0) return true;
  }
  return false;
}

struct User {
  uid_t uid;
  gid_t gid;
};

std::optional<User> look_up(const std::string& name) {
  struct passwd pw;
  struct passwd* found = nullptr;
  std::vector<char> buf(16384);
  if (::getpwnam_r(name.c_str(), &pw, buf.data(), buf.size(), &found) != 0 || !found) {
    return std::nullopt;
  }
  return User{pw.pw_uid, pw.pw_gid};
}

Result<std::uint64_t> memory_limit_bytes(const std::string& text, std::uint64_t memory) {
  if (text.ends_with('%')) {
    const std::uint64_t pct = std::stoull(text.substr(0, text.size() - 1));
    return memory / 100 * pct;
  }
  return std::stoull(text);
}

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
    "join the guests' CPU cgroup"};

// Everything the child needs, prepared before fork: after it, only async-signal-safe calls.
struct ChildPlan {
  std::vector<std::string> argv_text;
  std::vector<char*> argv;
  std::vector<char*> envp;
  int binary_fd = -1;
  bool via_launcher = false;
  int fds[3] = {-1, -1, -1};  // what becomes 0, 1, 2
  int socket_fd = -1;         // becomes 3 (a worker)
  int procs_fd = -1;
  int cpu_procs_fd = -1;
  int error_fd = -1;
  pid_t parent = 0;
  const Containment* c = nullptr;
};

[[noreturn]] void child_fail(const ChildPlan& p, int step) {
  ChildError e{step, errno};
  [[maybe_unused]] ssize_t n = ::write(p.error_fd, &e, sizeof e);
  ::_exit(127);
}

// Puts `from` at `to`, close-on-exec unless `inherit`.
bool place(int from, int to, bool inherit) {
  if (::dup2(from, to) < 0) return false;
  return inherit || ::fcntl(to, F_SETFD, FD_CLOEXEC) == 0;
}

[[noreturn]] void run_child(ChildPlan& p) {
  // Descriptors: 0-2 as planned, 3 the socket, 4 the executable (inherited only for a
  // launcher, which opens it by path), 5 the error pipe, 6 the memory cgroup's cgroup.procs, 7
  // the guests' CPU cgroup's; everything else closed.
  // First everything needed moves above the range it is placed in.
  constexpr int kHigh = 100;
  const int error_fd = ::fcntl(p.error_fd, F_DUPFD_CLOEXEC, kHigh);
  if (error_fd < 0) ::_exit(127);
  p.error_fd = error_fd;
  const int binary = ::fcntl(p.binary_fd, F_DUPFD_CLOEXEC, kHigh);
  const int procs = p.procs_fd >= 0 ? ::fcntl(p.procs_fd, F_DUPFD_CLOEXEC, kHigh) : -1;
  const int cpu_procs = p.cpu_procs_fd >= 0 ? ::fcntl(p.cpu_procs_fd, F_DUPFD_CLOEXEC, kHigh) : -1;
  const int sock = p.socket_fd >= 0 ? ::fcntl(p.socket_fd, F_DUPFD_CLOEXEC, kHigh) : -1;
  int moved[3];
  for (int i = 0; i < 3; ++i) moved[i] = ::fcntl(p.fds[i], F_DUPFD_CLOEXEC, kHigh);
  if (binary < 0 || moved[0] < 0 || moved[1] < 0 || moved[2] < 0) child_fail(p, 0);
  for (int i = 0; i < 3; ++i) {
    if (!place(moved[i], i, true)) child_fail(p, 0);
  }
  if (sock >= 0 && !place(sock, 3, true)) child_fail(p, 0);
  if (!place(binary, 4, p.via_launcher)) child_fail(p, 0);
  if (!place(error_fd, 5, false)) child_fail(p, 0);
  p.error_fd = 5;
  if (procs >= 0 && !place(procs, 6, false)) child_fail(p, 0);
  if (cpu_procs >= 0 && !place(cpu_procs, 7, false)) child_fail(p, 0);
  if (sock < 0) ::close(3);
  if (procs < 0) ::close(6);
  if (cpu_procs < 0) ::close(7);
  if (::syscall(SYS_close_range, 8u, ~0u, 0u) != 0) {
    for (int fd = 8; fd < 4096; ++fd) ::close(fd);
  }
  ::setsid();  // a session of its own: driftd's terminal signals are not its
  if (cpu_procs >= 0 && ::write(7, "0", 1) != 1) child_fail(p, 12);
  if (procs >= 0 && ::write(6, "0", 1) != 1) child_fail(p, 1);
  const Containment& c = *p.c;
  if (::setpriority(PRIO_PROCESS, 0, c.nice) != 0) child_fail(p, 2);
  if (c.sched_idle) {
    struct sched_param param {};
    if (::sched_setscheduler(0, SCHED_IDLE, &param) != 0) child_fail(p, 3);
  }
  if (c.memory_limit > 0 && procs < 0) {  // no cgroup: the address space instead
    struct rlimit limit {static_cast<rlim_t>(c.memory_limit), static_cast<rlim_t>(c.memory_limit)};
    if (::setrlimit(RLIMIT_AS, &limit) != 0) child_fail(p, 4);
  }
  // Not even driftd's ambient capabilities, nor a way back to a better priority.
  ::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  struct rlimit no_nicer {0, 0};
  ::setrlimit(RLIMIT_NICE, &no_nicer);
  if (c.switch_user) {
    if (::setgroups(0, nullptr) != 0) child_fail(p, 5);
    if (::setgid(c.gid) != 0) child_fail(p, 6);
    if (::setuid(c.uid) != 0) child_fail(p, 7);
  }
  // After the switch: a change of credentials clears the parent-death signal.
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) child_fail(p, 8);
  if (::getppid() != p.parent) ::_exit(127);  // driftd is already gone
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) child_fail(p, 9);
  if (::chdir("/") != 0) child_fail(p, 10);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGCHLD}) ::sigaction(sig, &dfl, nullptr);
  if (p.via_launcher) {
    ::execve(p.argv[0], p.argv.data(), p.envp.data());
  } else {
    ::syscall(SYS_execveat, 4, "", p.argv.data(), p.envp.data(), AT_EMPTY_PATH);
  }
  child_fail(p, 11);
}

struct Pipe {
  int read = -1;
  int write = -1;
};

Result<Pipe> make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return Status::error(std::string("pipe: ") + std::strerror(errno));
  return Pipe{fds[0], fds[1]};
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// Forks and runs the child; returns its pid once it runs the executable (or why it did not).
Result<pid_t> start_child(ChildPlan& plan, const LaunchSpec& spec) {
  Result<Pipe> errors = make_pipe();
  if (!errors) return errors.status();
  plan.error_fd = errors->write;
  plan.parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const std::string why = std::strerror(errno);
    close_fd(errors->read);
    close_fd(errors->write);
    return Status::error("fork: " + why);
  }
  if (pid == 0) run_child(plan);
  close_fd(errors->write);
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
    return Status::error(spec.executable + " could not " + kSteps[step] + ": " +
                         std::strerror(e.error));
  }
  return pid;
}

// A launcher named without a '/' is found on driftd's PATH, as a shell would.
std::string on_path(const std::string& program) {
  if (program.find('/') != std::string::npos) return program;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  for (std::size_t at = 0; at <= dirs.size();) {
    const std::size_t colon = std::min(dirs.find(':', at), dirs.size());
    const std::string candidate = dirs.substr(at, colon - at) + "/" + program;
    if (colon > at && ::access(candidate.c_str(), X_OK) == 0) return candidate;
    at = colon + 1;
  }
  return program;
}

ChildPlan plan_for(const LaunchSpec& spec, const Containment& c, int binary_fd) {
  ChildPlan plan;
  plan.c = &c;
  plan.binary_fd = binary_fd;
  plan.via_launcher = !spec.launcher.empty();
  plan.argv_text = spec.launcher;
  if (plan.via_launcher) plan.argv_text.front() = on_path(plan.argv_text.front());
  plan.argv_text.push_back(plan.via_launcher ? "/proc/self/fd/4" : spec.executable);
  for (const auto& a : spec.args) plan.argv_text.push_back(a);
  for (auto& a : plan.argv_text) plan.argv.push_back(a.data());
  plan.argv.push_back(nullptr);
  static const char* const kBase[] = {"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/"};
  for (const char* e : kBase) plan.envp.push_back(const_cast<char*>(e));
  // glibc (2.35+) then asks for transparent huge pages for what malloc maps: a 500 MB state
  // is freed in ~1 ms of kernel time instead of ~16 (on a node under a CPU quota the kernel
  // bills that time to the whole node afterwards, and its daemon stops with it), and a stencil's
  // arrays take fewer page faults and TLB misses. Older glibcs ignore it.
  static const char kHugePages[] = "GLIBC_TUNABLES=glibc.malloc.hugetlb=1";
  if (c.huge_pages) plan.envp.push_back(const_cast<char*>(kHugePages));
  for (char** e = environ; *e; ++e) {
    if (kept_variable(*e)) plan.envp.push_back(*e);
  }
  plan.envp.push_back(nullptr);
  return plan;
}

// The parts both launches share: the executable opened, the memory cgroup made, the guests'
// CPU cgroup opened.
struct Prepared {
  int binary_fd = -1;
  int procs_fd = -1;
  int cpu_procs_fd = -1;
  std::string cgroup;
};

void release(Prepared& p, bool failed) {
  close_fd(p.binary_fd);
  close_fd(p.procs_fd);
  close_fd(p.cpu_procs_fd);
  if (failed && !p.cgroup.empty()) MemoryCgroups::remove(p.cgroup);
}

Result<Prepared> prepare(const LaunchSpec& spec, const Containment& c) {
  Prepared p;
  p.binary_fd = ::open(spec.executable.c_str(), O_RDONLY | O_CLOEXEC);
  if (p.binary_fd < 0) {
    return Status::error("cannot open " + spec.executable + ": " + std::strerror(errno));
  }
  if (c.memory_limit > 0 && c.cgroups && !spec.cgroup_name.empty()) {
    auto dir = c.cgroups->make(spec.cgroup_name, c.memory_limit);
    if (!dir) {
      close_fd(p.binary_fd);
      return dir.status();
    }
    p.cgroup = *dir;
    p.procs_fd = MemoryCgroups::open_procs(p.cgroup);
    if (p.procs_fd < 0) {
      const std::string why = std::strerror(errno);
      MemoryCgroups::remove(p.cgroup);
      close_fd(p.binary_fd);
      return Status::error("cannot open " + p.cgroup + "/cgroup.procs: " + why);
    }
  }
  // On cgroup v2 the memory cgroup is inside the CPU one (and the CPU one may hold no process).
  if (c.cpu_group && !(c.cpu_group->v2() && p.procs_fd >= 0)) {
    p.cpu_procs_fd = c.cpu_group->open_procs();
    if (p.cpu_procs_fd < 0) {
      const std::string why = std::strerror(errno);
      release(p, true);
      return Status::error("cannot open " + c.cpu_group->dir() + "/cgroup.procs: " + why);
    }
  }
  return p;
}


// The link's buffers: a MiB-sized message or state piece crosses in one or two writes instead
// of a dozen wake-ups of both ends. SO_SNDBUFFORCE where the daemon may exceed net.core.wmem_max
// (CAP_NET_ADMIN), else as much as that allows; a socket that keeps its default still works.
void size_socket_buffers(const int (&sv)[2]) {
  constexpr int kBytes = 4 << 20;
  for (int fd : sv) {
    for (auto [force, plain] : {std::pair{SO_SNDBUFFORCE, SO_SNDBUF},
                                std::pair{SO_RCVBUFFORCE, SO_RCVBUF}}) {
      if (::setsockopt(fd, SOL_SOCKET, force, &kBytes, sizeof kBytes) != 0) {
        ::setsockopt(fd, SOL_SOCKET, plain, &kBytes, sizeof kBytes);
      }
    }
  }
}

}  // namespace

Result<Containment> make_containment(const WorkerSettings& s, std::uint64_t memory_bytes,
                                     const std::string& tag) {
  Containment c;
  c.nice = s.nice;
  c.huge_pages = s.huge_pages;
  c.sched_idle = s.sched_idle;
  auto limit = memory_limit_bytes(s.memory_limit, memory_bytes);
  if (!limit) return limit.status();
  c.memory_limit = *limit;
  std::string user_text = "driftd's own user";
  if (::geteuid() == 0 && s.user == "daemon") {
    return Status::error("worker.user = 'daemon': driftd runs as root, and workers never do; "
                         "name an unprivileged user (or auto)");
  }
  if (::geteuid() == 0) {
    std::optional<User> user;
    std::string name = s.user;
    if (s.user == "auto") {
      name = "drift";
      user = look_up(name);
      if (!user) user = look_up(name = "nobody");
    } else {
      user = look_up(name);
    }
    if (!user) {
      return Status::error("worker.user = '" + s.user + "': no such user on this machine");
    }
    if (user->uid == 0) {
      return Status::error("worker.user = '" + s.user + "' is root; workers never run as root");
    }
    c.switch_user = true;
    c.uid = user->uid;
    c.gid = user->gid;
    user_text = name + " (uid " + std::to_string(user->uid) + ")";
  }
  c.user = user_text;
  std::string cpu = "no CPU cgroup";
  if (c.sched_idle && !tag.empty()) {
    auto group = GuestCpuGroup::make(tag + "-guests");
    if (group) c.cpu_group = *group;
    cpu = group ? (*group)->describe() : "no CPU cgroup: " + group.error();
  }
  std::string memory = "no memory limit";
  if (c.memory_limit > 0) {
    auto groups = MemoryCgroups::find(c.cpu_group && c.cpu_group->v2() ? c.cpu_group->dir() : "");
    if (groups) c.cgroups = *groups;
    memory = "at most " + std::to_string(c.memory_limit >> 20) + " MiB each (" +
             (groups ? "memory cgroup under " + groups->base()
                     : "RLIMIT_AS; no memory cgroup: " + groups.error()) +
             ")";
  }
  c.summary = "workers run as " + user_text + ", nice " + std::to_string(c.nice) +
              (c.sched_idle ? ", SCHED_IDLE, " + cpu : "") + ", " + memory;
  return c;
}

Result<Launched> launch_worker(const LaunchSpec& spec, const Containment& c) {
  auto prepared = prepare(spec, c);
  if (!prepared) return prepared.status();
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    release(*prepared, true);
    return Status::error(std::string("socketpair: ") + std::strerror(errno));
  }
  size_socket_buffers(sv);
  Result<Pipe> err = make_pipe();
  const int devnull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (!err || devnull < 0) {
    const std::string why = !err ? err.error() : std::string("/dev/null: ") + std::strerror(errno);
    ::close(sv[0]);
    ::close(sv[1]);
    if (devnull >= 0) ::close(devnull);
    if (err) {
      ::close(err->read);
      ::close(err->write);
    }
    release(*prepared, true);
    return Status::error("cannot make the worker's pipes: " + why);
  }
  LaunchSpec with_fd = spec;
  with_fd.args.insert(with_fd.args.begin(), {"--drift-worker", "3"});
  ChildPlan plan = plan_for(with_fd, c, prepared->binary_fd);
  plan.fds[0] = devnull;
  plan.fds[1] = err->write;
  plan.fds[2] = err->write;
  plan.socket_fd = sv[1];
  plan.procs_fd = prepared->procs_fd;
  plan.cpu_procs_fd = prepared->cpu_procs_fd;
  Result<pid_t> pid = start_child(plan, spec);
  ::close(sv[1]);
  ::close(devnull);
  ::close(err->write);
  release(*prepared, !pid);
  if (!pid) {
    ::close(sv[0]);
    ::close(err->read);
    return pid.status();
  }
  return Launched{*pid, sv[0], -1, err->read, prepared->cgroup};
}

Result<Launched> launch_query(const LaunchSpec& spec, const Containment& c) {
  auto prepared = prepare(spec, c);
  if (!prepared) return prepared.status();
  Result<Pipe> in = make_pipe(), out = make_pipe(), err = make_pipe();
  if (!in || !out || !err) {
    std::string why;
    for (Result<Pipe>* p : {&in, &out, &err}) {
      if (*p) {
        ::close((*p)->read);
        ::close((*p)->write);
      } else if (why.empty()) {
        why = p->error();
      }
    }
    release(*prepared, true);
    return Status::error("cannot make the query's pipes: " + why);
  }
  ChildPlan plan = plan_for(spec, c, prepared->binary_fd);
  plan.fds[0] = in->read;
  plan.fds[1] = out->write;
  plan.fds[2] = err->write;
  plan.procs_fd = prepared->procs_fd;
  plan.cpu_procs_fd = prepared->cpu_procs_fd;
  Result<pid_t> pid = start_child(plan, spec);
  ::close(in->read);
  ::close(out->write);
  ::close(err->write);
  release(*prepared, !pid);
  if (!pid) {
    ::close(in->write);
    ::close(out->read);
    ::close(err->read);
    return pid.status();
  }
  return Launched{*pid, in->write, out->read, err->read, prepared->cgroup};
}

std::string describe_wait_status(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = ::strsignal(sig);
    return "was killed by signal " + std::to_string(sig) +
           (name ? std::string(" (") + name + ")" : "");
  }
  return "ended (wait status " + std::to_string(status) + ")";
}

}  // namespace drift
