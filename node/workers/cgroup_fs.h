// The cgroup filesystem as driftd sees it: where a controller is mounted (a cgroup v1 hierarchy
// naming it, else the cgroup2 hierarchy), which cgroup of it driftd is in, and reading and
// writing its control files. Shared by the worker's memory cgroups and the guests' CPU cgroup.
#pragma once

#include <optional>
#include <string>

namespace drift::cgroup_fs {

struct Hierarchy {
  std::string mount;  // where it is mounted
  bool v2 = false;
};

// The hierarchy that has `controller` ("memory", "cpu"): a v1 mount listing it among its
// options, else the cgroup2 mount (whose cgroups may or may not offer it).
std::optional<Hierarchy> hierarchy_of(const std::string& controller);

// driftd's own cgroup in that hierarchy, as a directory ("/sys/fs/cgroup/memory/foo").
std::optional<std::string> own_dir(const Hierarchy& h, const std::string& controller);

std::string read_text(const std::string& path);
// Writes `value` in one write(2), as the kernel wants; false with errno set when it fails.
bool write_text(const std::string& path, const std::string& value);
// Whether the space-separated list in `path` (cgroup.controllers, cgroup.subtree_control)
// names `controller`.
bool lists(const std::string& path, const std::string& controller);

// Makes `dir`, removing an empty leftover of the same name first (an earlier daemon with our
// pid, killed before it cleaned up). False with errno set when it cannot.
bool make_dir(const std::string& dir);
// Kills every process still in it.
void kill_all(const std::string& dir);
// Removes it, waiting a moment for killed processes to leave it; logs when it cannot.
void remove_dir(const std::string& dir);

}  // namespace drift::cgroup_fs
