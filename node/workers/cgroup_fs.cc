#include "node/workers/cgroup_fs.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <spdlog/spdlog.h>

namespace drift::cgroup_fs {

namespace {

bool has_word(const std::string& list, char sep, const std::string& word) {
  std::istringstream in(list);
  for (std::string w; std::getline(in, w, sep);) {
    while (!w.empty() && (w.back() == '\n' || w.back() == ' ')) w.pop_back();
    if (w == word) return true;
  }
  return false;
}

}  // namespace

std::optional<Hierarchy> hierarchy_of(const std::string& controller) {
  std::ifstream in("/proc/self/mountinfo");
  std::optional<Hierarchy> v2;
  for (std::string line; std::getline(in, line);) {
    const auto dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream before(line.substr(0, dash)), after(line.substr(dash + 3));
    std::string id, parent, dev, root, mount_point, fstype, source, options;
    before >> id >> parent >> dev >> root >> mount_point;
    after >> fstype >> source >> options;
    if (fstype == "cgroup" && has_word(options, ',', controller)) {
      return Hierarchy{mount_point, false};
    }
    if (fstype == "cgroup2" && !v2) v2 = Hierarchy{mount_point, true};
  }
  return v2;
}

std::optional<std::string> own_dir(const Hierarchy& h, const std::string& controller) {
  // Lines "N:memory:/path" (v1, controllers comma-separated) or "0::/path" (v2).
  std::ifstream in("/proc/self/cgroup");
  for (std::string line; std::getline(in, line);) {
    const auto a = line.find(':');
    const auto b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1);
    const bool match = h.v2 ? line.substr(0, a) == "0" && controllers.empty()
                            : has_word(controllers, ',', controller);
    if (!match) continue;
    const std::string path = line.substr(b + 1);
    return h.mount + (path == "/" ? "" : path);
  }
  return std::nullopt;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool write_text(const std::string& path, const std::string& value) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::write(fd, value.data(), value.size()) == static_cast<ssize_t>(value.size());
  const int saved = errno;
  ::close(fd);
  errno = saved;
  return ok;
}

bool lists(const std::string& path, const std::string& controller) {
  return has_word(read_text(path), ' ', controller);
}

bool make_dir(const std::string& dir) {
  // Names are unique among live daemons only; an empty leftover goes, one with a process still
  // in it makes rmdir refuse, and so do we.
  return ::mkdir(dir.c_str(), 0755) == 0 ||
         (errno == EEXIST && ::rmdir(dir.c_str()) == 0 && ::mkdir(dir.c_str(), 0755) == 0);
}

void kill_all(const std::string& dir) {
  std::ifstream in(dir + "/cgroup.procs");
  for (pid_t pid; in >> pid;) {
    if (pid > 0) ::kill(pid, SIGKILL);
  }
}

void remove_dir(const std::string& dir) {
  for (int i = 0; i < 50; ++i) {
    if (::rmdir(dir.c_str()) == 0 || errno == ENOENT) return;
    if (errno != EBUSY) break;
    ::usleep(2'000);  // processes just killed are still leaving it
  }
  spdlog::warn("cannot remove the cgroup {}: {}", dir, std::strerror(errno));
}

}  // namespace drift::cgroup_fs
