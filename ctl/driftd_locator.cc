#include "ctl/driftd_locator.h"

#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <string>

namespace drift::ctl {

namespace {

bool is_executable(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// The first executable `name` in PATH's directories, or an empty path.
std::filesystem::path search_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path == nullptr ? "" : path);
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (dir.empty()) continue;
    const auto candidate = std::filesystem::path(dir) / name;
    if (is_executable(candidate)) return candidate;
  }
  return {};
}

}  // namespace

Result<std::filesystem::path> find_driftd() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  std::string looked;
  if (!ec) {
    const auto beside = self.parent_path() / "driftd";
    if (is_executable(beside)) return beside;
    // Installed: driftctl in PREFIX/bin, the daemon in PREFIX/sbin.
    const auto sbin = self.parent_path().parent_path() / "sbin" / "driftd";
    if (is_executable(sbin)) return sbin;
    looked = beside.string() + ", " + sbin.string();
  }
  if (auto on_path = search_path("driftd"); !on_path.empty()) return on_path;
  return Status::error("cannot find driftd (looked at " + (looked.empty() ? "" : looked + " and ") +
                       "every directory on PATH); pass --driftd PATH");
}

Result<std::filesystem::path> find_program(const std::string& program) {
  if (program.find('/') != std::string::npos) return std::filesystem::path(program);
  if (auto on_path = search_path(program); !on_path.empty()) return on_path;
  return Status::error("cannot find '" + program + "' on PATH");
}

}  // namespace drift::ctl
