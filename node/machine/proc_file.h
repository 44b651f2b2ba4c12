// Reading the kernel's small text files (/proc, /sys) cheaply (docs/architecture.md §5.1, §8.1).
// The daemon reads some of them at every membership round — its network thread's schedstat, its
// cgroup's cpu.stat, /proc/loadavg, /proc/meminfo — and through an ifstream each reading was an
// open, a path walk, a stream with its locale, a copy and a close: on an idle node of three that
// was a fifth of the daemon's CPU time, and on a PC at a twentieth of a core the daemon's idle work
// left its tasks half the quota. A ProcFile opens its file once and reads it again from the start
// with one pread; read_text reads a file that is looked at once (a thread's stat) with plain
// system calls.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace drift {

class ProcFile {
 public:
  explicit ProcFile(std::string path) : path_(std::move(path)) {}
  ~ProcFile();
  ProcFile(const ProcFile&) = delete;
  ProcFile& operator=(const ProcFile&) = delete;

  // The file's text now (its first 64 KiB), valid until the next read; nothing if it cannot be
  // opened or read. The first read opens the file, in the calling thread: /proc/thread-self/...
  // names the thread that reads first. A failed read closes it, and the next one opens it again.
  std::optional<std::string_view> read();

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int fd_ = -1;
  std::string buffer_;
};

// The text of the file at `path` (its first `limit` bytes) by open/read/close; nothing if it cannot
// be read.
std::optional<std::string> read_text(const std::string& path, std::size_t limit = 65536);

}  // namespace drift
