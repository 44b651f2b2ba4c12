#include "node/workers/memory_cgroup.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "node/workers/cgroup_fs.h"

namespace drift {

namespace {

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

}  // namespace

Result<MemoryCgroups> MemoryCgroups::find(const std::string& v2_parent) {
  using namespace cgroup_fs;
  const auto h = hierarchy_of("memory");
  if (!h) return Status::error("no memory cgroup controller is mounted");
  std::string base;
  if (h->v2 && !v2_parent.empty()) {
    // Under the guests' CPU cgroup: this daemon enables the controller there itself.
    base = v2_parent;
    if (!lists(base + "/cgroup.subtree_control", "memory") &&
        !write_text(base + "/cgroup.subtree_control", "+memory")) {
      return Status::error("cannot enable the memory controller in " + base + ": " +
                           std::strerror(errno));
    }
  } else {
    const auto own = own_dir(*h, "memory");
    if (!own) return Status::error("/proc/self/cgroup names no memory cgroup of ours");
    base = *own;
    if (h->v2 && !lists(base + "/cgroup.subtree_control", "memory")) {
      return Status::error(base + " does not delegate the memory controller to its children");
    }
  }
  if (::access(base.c_str(), W_OK) != 0) {
    return Status::error("cannot make cgroups in " + base + ": " + std::strerror(errno));
  }
  return MemoryCgroups(base, h->v2);
}

Result<std::string> MemoryCgroups::make(const std::string& name, std::uint64_t limit) const {
  const std::string dir = base_ + "/" + name;
  if (!cgroup_fs::make_dir(dir)) {
    return Status::error("cannot make " + dir + ": " + std::strerror(errno));
  }
  const std::string value = std::to_string(limit);
  const bool ok = v2_ ? cgroup_fs::write_text(dir + "/memory.max", value) &&
                            (cgroup_fs::write_text(dir + "/memory.swap.max", "0") || true)
                      : cgroup_fs::write_text(dir + "/memory.limit_in_bytes", value);
  if (!ok) {
    const std::string why = std::strerror(errno);
    remove(dir);
    return Status::error("cannot limit " + dir + " to " + value + " bytes: " + why);
  }
  if (!v2_) cgroup_fs::write_text(dir + "/memory.memsw.limit_in_bytes", value);  // no swapping past it
  return dir;
}

int MemoryCgroups::open_procs(const std::string& dir) {
  return ::open((dir + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
}

bool MemoryCgroups::oom_killed(const std::string& dir) const {
  const std::string text = cgroup_fs::read_text(dir + (v2_ ? "/memory.events" : "/memory.oom_control"));
  return field(text, "oom_kill") > 0;
}

void MemoryCgroups::kill_all(const std::string& dir) { cgroup_fs::kill_all(dir); }

void MemoryCgroups::remove(const std::string& dir) { cgroup_fs::remove_dir(dir); }

}  // namespace drift
