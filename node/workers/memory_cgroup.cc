#include "node/workers/memory_cgroup.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include <spdlog/spdlog.h>

namespace drift {

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool write_file(const std::string& path, const std::string& value) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::write(fd, value.data(), value.size()) == static_cast<ssize_t>(value.size());
  ::close(fd);
  return ok;
}

// The value of `key` in a file of "key value" lines (memory.oom_control, memory.events).
std::uint64_t field(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  std::string k;
  std::uint64_t v = 0;
  while (in >> k >> v) {
    if (k == key) return v;
  }
  return 0;
}

struct Mount {
  std::string dir;
  bool v2 = false;
};

// The memory controller's mount: a cgroup v1 mount with "memory" among its options, else the
// cgroup2 mount.
std::optional<Mount> memory_mount() {
  std::ifstream in("/proc/self/mountinfo");
  std::optional<Mount> v2;
  for (std::string line; std::getline(in, line);) {
    const auto dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream before(line.substr(0, dash)), after(line.substr(dash + 3));
    std::string id, parent, dev, root, mount_point, fstype, source, options;
    before >> id >> parent >> dev >> root >> mount_point;
    after >> fstype >> source >> options;
    if (fstype == "cgroup" && ("," + options + ",").find(",memory,") != std::string::npos) {
      return Mount{mount_point, false};
    }
    if (fstype == "cgroup2" && !v2) v2 = Mount{mount_point, true};
  }
  return v2;
}

// Our own cgroup's path in the hierarchy: "N:memory:/path" (v1) or "0::/path" (v2).
std::optional<std::string> own_path(bool v2) {
  std::ifstream in("/proc/self/cgroup");
  for (std::string line; std::getline(in, line);) {
    const auto a = line.find(':');
    const auto b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1);
    const bool match = v2 ? line.substr(0, a) == "0" && controllers.empty()
                          : ("," + controllers + ",").find(",memory,") != std::string::npos;
    if (match) return line.substr(b + 1);
  }
  return std::nullopt;
}

}  // namespace

Result<MemoryCgroups> MemoryCgroups::find() {
  const auto mount = memory_mount();
  if (!mount) return Status::error("no memory cgroup controller is mounted");
  const auto path = own_path(mount->v2);
  if (!path) return Status::error("/proc/self/cgroup names no memory cgroup of ours");
  const std::string base = mount->dir + (*path == "/" ? "" : *path);
  if (mount->v2) {
    const std::string enabled = read_file(base + "/cgroup.subtree_control");
    if (enabled.find("memory") == std::string::npos) {
      return Status::error(base + " does not delegate the memory controller to its children");
    }
  }
  if (::access(base.c_str(), W_OK) != 0) {
    return Status::error("cannot make cgroups in " + base + ": " + std::strerror(errno));
  }
  return MemoryCgroups(base, mount->v2);
}

Result<std::string> MemoryCgroups::make(const std::string& name, std::uint64_t limit) const {
  const std::string dir = base_ + "/" + name;
  // It exists: a leftover of an earlier daemon that had our pid and was killed before it removed
  // its cgroups (names are unique among live daemons only). Empty, it goes; with a process still
  // in it, rmdir refuses and so do we.
  if (::mkdir(dir.c_str(), 0755) != 0 &&
      (errno != EEXIST || ::rmdir(dir.c_str()) != 0 || ::mkdir(dir.c_str(), 0755) != 0)) {
    return Status::error("cannot make " + dir + ": " + std::strerror(errno));
  }
  const std::string value = std::to_string(limit);
  const bool ok = v2_ ? write_file(dir + "/memory.max", value) &&
                            (write_file(dir + "/memory.swap.max", "0") || true)
                      : write_file(dir + "/memory.limit_in_bytes", value);
  if (!ok) {
    const std::string why = std::strerror(errno);
    remove(dir);
    return Status::error("cannot limit " + dir + " to " + value + " bytes: " + why);
  }
  if (!v2_) write_file(dir + "/memory.memsw.limit_in_bytes", value);  // no swapping past it
  return dir;
}

int MemoryCgroups::open_procs(const std::string& dir) {
  return ::open((dir + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
}

bool MemoryCgroups::oom_killed(const std::string& dir) const {
  const std::string text = read_file(dir + (v2_ ? "/memory.events" : "/memory.oom_control"));
  return field(text, "oom_kill") > 0;
}

void MemoryCgroups::kill_all(const std::string& dir) {
  std::ifstream in(dir + "/cgroup.procs");
  for (pid_t pid; in >> pid;) {
    if (pid > 0) ::kill(pid, SIGKILL);
  }
}

void MemoryCgroups::remove(const std::string& dir) {
  for (int i = 0; i < 50; ++i) {
    if (::rmdir(dir.c_str()) == 0 || errno == ENOENT) return;
    if (errno != EBUSY) break;
    ::usleep(2'000);  // processes just killed are still leaving it
  }
  spdlog::warn("cannot remove the memory cgroup {}: {}", dir, std::strerror(errno));
}

}  // namespace drift
