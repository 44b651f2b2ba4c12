#include "node/workers/worker_launch.h"

#include <fcntl.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "node/machine/capabilities.h"
#include "node/machine/proc_file.h"
#include "node/workers/child_start.h"
#include "node/workers/child_starter.h"

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

// worker.job_uids as this machine allows: none when off, or when auto and this user namespace
// does not map the default range (a container's); a range it does not map is an error.
Result<std::optional<UidRange>> job_uid_range(const std::string& text) {
  if (text == "off") return std::optional<UidRange>();
  const bool automatic = text == "auto";
  auto range = parse_uid_range(automatic ? WorkerSettings::kDefaultJobUids : text);
  if (!range) return Status::error("worker.job_uids = " + range.error());
  const auto uids = read_text("/proc/self/uid_map"), gids = read_text("/proc/self/gid_map");
  if (uids && gids && range_mapped(*range, *uids) && range_mapped(*range, *gids)) {
    return std::optional<UidRange>(*range);
  }
  if (automatic) return std::optional<UidRange>();
  return Status::error("worker.job_uids = '" + text +
                       "': this machine's user namespace does not map those ids "
                       "(/proc/self/uid_map, gid_map)");
}

Result<std::uint64_t> memory_limit_bytes(const std::string& text, std::uint64_t memory) {
  if (text.ends_with('%')) {
    const std::uint64_t pct = std::stoull(text.substr(0, text.size() - 1));
    return memory / 100 * pct;
  }
  return std::stoull(text);
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

// Fills `plan` in place: its argv points into its own strings, so it is never moved after this.
void plan_for(ChildPlan& plan, const LaunchSpec& spec, const Containment& c, int binary_fd) {
  plan.c = &c;
  plan.switch_user = c.switch_user;
  plan.uid = c.uid;
  plan.gid = c.gid;
  if (c.switch_user && spec.job_uid) plan.uid = plan.gid = *spec.job_uid;
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

// The child starts on the ChildStarter's thread; once it runs its executable (or failed to), on
// `io`: the descriptors only the child needed are closed, the preparation released (its memory
// cgroup removed if the child never ran), and `started` told.
void start_in_background(asio::io_context& io, std::shared_ptr<ChildPlan> plan,
                         const std::string& executable, Prepared prepared,
                         std::vector<int> child_fds, Started started) {
  start_child_async(io, std::move(plan), executable,
                    [prepared, child_fds = std::move(child_fds),
                     started = std::move(started)](Result<pid_t> pid) mutable {
                      for (int& fd : child_fds) close_fd(fd);
                      release(prepared, !pid);
                      started(std::move(pid));
                    });
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
  // Root, or a user with just the capabilities it takes (the packaged service: drift with
  // CAP_SETUID, CAP_SETGID and CAP_KILL). 'daemon' names driftd's own user, never the system
  // account of that name, and a daemon that may switch users still does not then.
  if (may_switch_users() && s.user != "daemon") {
    std::optional<User> user;
    std::string name = s.user;
    if (s.user == "auto") {
      // Not driftd's own user: it reads the secret and the data directory.
      name = "drift";
      user = look_up(name);
      if (!user || user->uid == ::geteuid()) user = look_up(name = "nobody");
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
  std::string job_uids;
  if (c.switch_user) {
    auto range = job_uid_range(s.job_uids);
    if (!range) return range.status();
    c.job_uids = *range;
    job_uids = c.job_uids ? "each job as a user id of its own from " +
                                std::to_string(c.job_uids->first) + "-" +
                                std::to_string(c.job_uids->last) + " (questions to "
                                "applications as " + user_text + ")"
                          : user_text;
  } else {
    job_uids = user_text;
  }
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
  c.summary = "workers run as " + job_uids + ", nice " + std::to_string(c.nice) +
              (c.sched_idle ? ", SCHED_IDLE, " + cpu : "") + ", " + memory;
  return c;
}

Result<Launched> launch_worker(asio::io_context& io, const LaunchSpec& spec, const Containment& c,
                               Started started) {
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
  auto plan = std::make_shared<ChildPlan>();
  plan_for(*plan, with_fd, c, prepared->binary_fd);
  plan->fds[0] = devnull;
  plan->fds[1] = err->write;
  plan->fds[2] = err->write;
  plan->socket_fd = sv[1];
  plan->procs_fd = prepared->procs_fd;
  plan->cpu_procs_fd = prepared->cpu_procs_fd;
  start_in_background(io, std::move(plan), spec.executable, *prepared,
                      {sv[1], devnull, err->write}, std::move(started));
  return Launched{-1, sv[0], -1, err->read, prepared->cgroup};
}

Result<Launched> launch_query(asio::io_context& io, const LaunchSpec& spec, const Containment& c,
                              Started started) {
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
  auto plan = std::make_shared<ChildPlan>();
  plan_for(*plan, spec, c, prepared->binary_fd);
  plan->fds[0] = in->read;
  plan->fds[1] = out->write;
  plan->fds[2] = err->write;
  plan->procs_fd = prepared->procs_fd;
  plan->cpu_procs_fd = prepared->cpu_procs_fd;
  start_in_background(io, std::move(plan), spec.executable, *prepared,
                      {in->read, out->write, err->write}, std::move(started));
  return Launched{-1, in->write, out->read, err->read, prepared->cgroup};
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
