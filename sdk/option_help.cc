#include "sdk/option_help.h"

#include <algorithm>

namespace drift {

namespace {

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

bool valid_key(const std::string& key) {
  return !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
  });
}

}  // namespace

bool parse_option_help(const std::string& line, AppOption& out) {
  const std::string text = trim(line);
  if (!text.starts_with("--")) return false;
  // The synopsis ends at the first run of two spaces (or a tab); the rest is the help text.
  auto split = std::min(text.find("  "), text.find('\t'));
  const std::string synopsis = text.substr(2, split == std::string::npos ? split : split - 2);
  out.help = split == std::string::npos ? "" : trim(text.substr(split));
  const auto gap = synopsis.find_first_of(" =");
  out.key = synopsis.substr(0, gap);
  out.value_name = gap == std::string::npos ? "" : trim(synopsis.substr(gap + 1));
  return valid_key(out.key);
}

std::vector<AppOption> app_options(const std::vector<std::string>& help_lines,
                                   const std::vector<std::string>& reserved) {
  std::vector<AppOption> options;
  for (const auto& line : help_lines) {
    AppOption option;
    if (!parse_option_help(line, option)) continue;
    if (std::find(reserved.begin(), reserved.end(), option.key) != reserved.end()) continue;
    options.push_back(std::move(option));
  }
  return options;
}

}  // namespace drift
