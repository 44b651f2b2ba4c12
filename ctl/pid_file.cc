#include "ctl/pid_file.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <string>

namespace drift::ctl {

Status write_pid_file(const std::filesystem::path& file, pid_t pid) {
  std::ofstream out(file, std::ios::trunc);
  out << pid << "\n";
  out.close();
  if (!out) {
    return Status::error("cannot write pid file '" + file.string() + "': " + std::strerror(errno));
  }
  return Status::ok();
}

Result<pid_t> read_pid_file(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) {
    return Status::error("cannot read pid file '" + file.string() + "': " + std::strerror(errno));
  }
  std::string text;
  std::getline(in, text);
  pid_t pid = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), pid);
  if (ec != std::errc() || end != text.data() + text.size() || pid <= 0) {
    return Status::error("pid file '" + file.string() + "' holds '" + text + "', not a process id");
  }
  return pid;
}

}  // namespace drift::ctl
