#include "node/workers/guest_cpu_group.h"

#include <spdlog/spdlog.h>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "node/workers/cgroup_fs.h"

namespace drift {

namespace {

std::string why() { return std::strerror(errno); }

// cgroup v2: lets `own` (driftd's cgroup) have children with the cpu controller. It must not
// hold processes once it enables controllers for its children, so a daemon alone in it moves
// into `own`/driftd first; a daemon sharing its cgroup (a login session) is refused.
Status delegate_cpu(const std::string& own) {
  using namespace cgroup_fs;
  if (!lists(own + "/cgroup.controllers", "cpu")) {
    return Status::error(own + " has no cpu controller (on systemd: Delegate=cpu memory)");
  }
  if (lists(own + "/cgroup.subtree_control", "cpu")) return Status::ok();
  std::ifstream procs(own + "/cgroup.procs");
  for (pid_t pid; procs >> pid;) {
    if (pid != ::getpid()) {
      return Status::error(own + " holds other processes (pid " + std::to_string(pid) +
                           "), so it cannot have a cgroup for guest work; run driftd in a "
                           "cgroup of its own (on systemd: Delegate=cpu memory)");
    }
  }
  const std::string leaf = own + "/driftd";
  if (!make_dir(leaf) || !write_text(leaf + "/cgroup.procs", std::to_string(::getpid()))) {
    return Status::error("cannot move driftd into " + leaf + ": " + why());
  }
  const std::string wanted = lists(own + "/cgroup.controllers", "memory") ? "+cpu +memory" : "+cpu";
  if (!write_text(own + "/cgroup.subtree_control", wanted)) {
    return Status::error("cannot enable '" + wanted + "' in " + own + ": " + why());
  }
  return Status::ok();
}

// The guests' groups of daemons of this machine that were killed before they could remove
// theirs: "drift-<node>-<pid>-guests" in `own` whose pid runs no more. Their workers died with
// them (PR_SET_PDEATHSIG); anything still inside is killed.
void remove_leftovers(const std::string& own) {
  std::error_code ec;
  // Groups come and go while we look (other daemons start and stop): increment(ec), never a throw.
  for (std::filesystem::directory_iterator it(own, ec), end; !ec && it != end; it.increment(ec)) {
    const std::filesystem::directory_entry& entry = *it;
    const std::string name = entry.path().filename().string();
    unsigned node = 0;
    int pid = 0, consumed = 0;
    if (std::sscanf(name.c_str(), "drift-%u-%d-guests%n", &node, &pid, &consumed) != 2 ||
        static_cast<std::size_t>(consumed) != name.size() || pid <= 0) {
      continue;
    }
    if (::kill(pid, 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to know
    spdlog::info("removing {}, left behind by a daemon that is gone", entry.path().string());
    cgroup_fs::kill_all(entry.path().string());
    cgroup_fs::remove_dir(entry.path().string());
  }
}

}  // namespace

Result<std::shared_ptr<GuestCpuGroup>> GuestCpuGroup::make(const std::string& name) {
  using namespace cgroup_fs;
  const auto h = hierarchy_of("cpu");
  if (!h) return Status::error("no cpu cgroup controller is mounted");
  const auto own = own_dir(*h, "cpu");
  if (!own) return Status::error("/proc/self/cgroup names no cpu cgroup of ours");
  if (h->v2) {
    if (Status st = delegate_cpu(*own); !st) return st;
  }
  if (::access(own->c_str(), W_OK) != 0) {
    return Status::error("cannot make cgroups in " + *own + ": " + why());
  }
  remove_leftovers(*own);
  const std::string dir = *own + "/" + name;
  if (!make_dir(dir)) return Status::error("cannot make " + dir + ": " + why());
  // The lowest weight there is: cpu.idle (kernel 5.15+, v1 and v2) schedules the group like
  // SCHED_IDLE against its siblings; shares 2 / weight 1 are the minimum otherwise. Each with the
  // normal value lend() sets.
  struct Weight {
    const char* file;
    const char* lowest;
    const char* normal;
    bool fits;
  };
  const Weight weights[] = {{"cpu.idle", "1", "0", true},
                            {"cpu.shares", "2", "1024", !h->v2},
                            {"cpu.weight", "1", "100", h->v2}};
  for (const Weight& w : weights) {
    if (w.fits && write_text(dir + "/" + w.file, w.lowest)) {
      return std::shared_ptr<GuestCpuGroup>(
          new GuestCpuGroup(dir, h->v2, w.file, w.lowest, w.normal));
    }
  }
  const std::string reason = why();
  remove_dir(dir);
  return Status::error("cannot lower the CPU weight of " + dir + ": " + reason);
}

GuestCpuGroup::~GuestCpuGroup() {
  cgroup_fs::kill_all(dir_);
  cgroup_fs::remove_dir(dir_);
}

void GuestCpuGroup::lend(bool on) const {
  const std::string& value = on ? normal_ : lowest_;
  if (!cgroup_fs::write_text(dir_ + "/" + file_, value)) {
    spdlog::warn("cannot set {} to {} in {}: {}", file_, value, dir_, why());
    return;
  }
  spdlog::info("guest work at {} weight while the owner's tasks leave: {} {}",
               on ? "normal" : "the lowest", file_, value);
}

int GuestCpuGroup::open_procs() const {
  return ::open((dir_ + "/cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
}

}  // namespace drift
