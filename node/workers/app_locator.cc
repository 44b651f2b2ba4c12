#include "node/workers/app_locator.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>

namespace drift {

namespace fs = std::filesystem;

namespace {

bool is_executable_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

}  // namespace

bool valid_app_name(const std::string& name) {
  if (name.empty() || name.size() > 128 || name.front() == '.') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '.' || c == '_' || c == '-';
  });
}

std::vector<std::string> apps_path(const std::vector<std::string>& configured,
                                   const std::string& self_exe) {
  if (!configured.empty()) return configured;
  std::vector<std::string> out;
  if (const char* env = std::getenv("DRIFT_APPS_PATH"); env && *env) {
    std::string text = env;
    for (std::size_t at = 0; at <= text.size();) {
      const std::size_t colon = std::min(text.find(':', at), text.size());
      if (colon > at) out.push_back(text.substr(at, colon - at));
      at = colon + 1;
    }
    return out;
  }
  std::error_code ec;
  const fs::path exe = self_exe.empty() ? fs::read_symlink("/proc/self/exe", ec) : fs::path(self_exe);
  if (!ec && exe.has_parent_path()) {
    out.push_back((exe.parent_path().parent_path() / "lib" / "drift" / "apps").string());
  }
  return out;
}

Result<std::string> find_app(const std::string& name, const std::vector<std::string>& path) {
  if (!valid_app_name(name)) {
    return Status::error("'" + name + "' is not an application name (letters, digits, '.', '_', "
                         "'-'); give a path to run an executable of your own");
  }
  std::string looked;
  for (const std::string& dir : path) {
    const fs::path candidate = fs::path(dir) / name;
    if (is_executable_file(candidate)) return candidate.string();
    looked += (looked.empty() ? "" : ", ") + dir;
  }
  return Status::error("no application '" + name + "' in the apps path (" +
                       (looked.empty() ? std::string("empty") : looked) + ")");
}

std::vector<std::pair<std::string, std::string>> list_apps(const std::vector<std::string>& path) {
  std::map<std::string, std::string> found;
  for (const std::string& dir : path) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      const std::string name = entry.path().filename().string();
      if (valid_app_name(name) && is_executable_file(entry.path())) found.emplace(name, entry.path());
    }
  }
  return {found.begin(), found.end()};
}

}  // namespace drift
