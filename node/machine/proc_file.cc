// A kernel text file read with plain system calls (proc_file.h).
#include "node/machine/proc_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace drift {

std::optional<std::string> read_text(const std::string& path, std::size_t limit) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string text(std::min<std::size_t>(limit, 4096), '\0');
  std::size_t used = 0;
  bool ok = true;
  for (;;) {
    if (used == text.size()) {
      if (text.size() >= limit) break;
      text.resize(std::min(limit, 2 * text.size()));
    }
    const ssize_t n = ::read(fd, text.data() + used, text.size() - used);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) ok = false;
    if (n <= 0) break;
    used += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (!ok) return std::nullopt;
  text.resize(used);
  return text;
}

}  // namespace drift
