// A kernel text file opened once and read again with pread (proc_file.h).
#include "node/machine/proc_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace drift {

namespace {

constexpr std::size_t kMaxBytes = 65536;

// Reads from `offset` until the end of the file or `limit` bytes into `out`; false on an error.
bool read_all(int fd, std::string& out, std::size_t limit) {
  std::size_t used = 0;
  out.resize(std::min<std::size_t>(limit, 4096));
  for (;;) {
    if (used == out.size()) {
      if (out.size() >= limit) break;
      out.resize(std::min(limit, 2 * out.size()));
    }
    const ssize_t n = ::pread(fd, out.data() + used, out.size() - used, static_cast<off_t>(used));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) break;
    used += static_cast<std::size_t>(n);
  }
  out.resize(used);
  return true;
}

}  // namespace

ProcFile::~ProcFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::optional<std::string_view> ProcFile::read() {
  if (fd_ < 0) fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) return std::nullopt;
  if (!read_all(fd_, buffer_, kMaxBytes)) {
    ::close(fd_);
    fd_ = -1;
    return std::nullopt;
  }
  return std::string_view(buffer_);
}

std::optional<std::string> read_text(const std::string& path, std::size_t limit) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string text;
  const bool ok = read_all(fd, text, limit);
  ::close(fd);
  if (!ok) return std::nullopt;
  return text;
}

}  // namespace drift
