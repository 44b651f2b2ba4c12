// Reading the kernel's small text files (/proc, /sys) cheaply (docs/architecture.md §5.1, §8.1).
// The daemon reads some of them at every membership round — its network thread's schedstat, its
// cgroup's cpu.stat — and others at every load reading (/proc/loadavg, /proc/meminfo, each
// thread's stat); through an ifstream each reading was an open, a path walk, a stream with its
// locale, a copy and a close. read_text is an open, one read or a few, and a close. No file is
// kept open: a daemon's open descriptors stay what its connections and files make them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace drift {

// The text of the file at `path` (its first `limit` bytes); nothing if it cannot be read.
std::optional<std::string> read_text(const std::string& path, std::size_t limit = 65536);

}  // namespace drift
