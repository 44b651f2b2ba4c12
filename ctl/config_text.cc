#include "ctl/config_text.h"

#include <sstream>
#include <vector>

namespace drift::ctl::config_text {

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += line + "\n";
  return out;
}

// "node.id" -> ("node", "id"); a key without a section has section "".
std::pair<std::string, std::string> split_key(const std::string& key) {
  const auto dot = key.find('.');
  if (dot == std::string::npos) return {"", key};
  return {key.substr(0, dot), key.substr(dot + 1)};
}

}  // namespace

std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return "";
  return std::string(s.substr(first, s.find_last_not_of(" \t\r") - first + 1));
}

std::string section_of(const std::string& line) {
  if (line.size() < 2 || line.front() != '[' || line.back() != ']') return "";
  return trim(line.substr(1, line.size() - 2));
}

std::string key_of(const std::string& line, const std::string& section) {
  if (line.empty() || line.front() == '#' || line.front() == ';') return "";
  const auto eq = line.find('=');
  if (eq == std::string::npos) return "";
  const std::string key = trim(line.substr(0, eq));
  return section.empty() ? key : section + "." + key;
}

std::optional<std::string> get(const std::string& text, const std::string& key) {
  std::string section;
  for (const auto& raw : lines_of(text)) {
    const std::string line = trim(raw);
    if (const auto s = section_of(line); !s.empty()) section = s;
    if (key_of(line, section) == key) return trim(line.substr(line.find('=') + 1));
  }
  return std::nullopt;
}

bool sets(const std::string& text, const std::string& key) { return get(text, key).has_value(); }

std::string set(const std::string& text, const std::string& key, const std::string& value) {
  const auto [wanted_section, name] = split_key(key);
  const std::string setting = name + " = " + value;
  std::vector<std::string> lines = lines_of(text);
  std::string section;
  bool done = false;
  std::ptrdiff_t end_of_section = -1;  // after the last non-blank line of the wanted section
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string line = trim(lines[i]);
    if (const auto s = section_of(line); !s.empty()) section = s;
    if (section == wanted_section && !line.empty()) end_of_section = static_cast<std::ptrdiff_t>(i);
    if (key_of(line, section) != key) continue;
    lines[i] = done ? "# (set above) " + lines[i] : setting;
    done = true;
  }
  if (done) return joined(lines);
  if (end_of_section >= 0) {
    lines.insert(lines.begin() + end_of_section + 1, setting);
    return joined(lines);
  }
  if (!lines.empty() && !trim(lines.back()).empty()) lines.emplace_back();
  if (!wanted_section.empty()) lines.push_back("[" + wanted_section + "]");
  lines.push_back(setting);
  return joined(lines);
}

std::string comment_out(const std::string& text, const std::string& key, const std::string& why) {
  std::vector<std::string> lines = lines_of(text);
  std::string section;
  for (auto& raw : lines) {
    const std::string line = trim(raw);
    if (const auto s = section_of(line); !s.empty()) section = s;
    if (key_of(line, section) == key) raw = "# (" + why + ") " + raw;
  }
  return joined(lines);
}

}  // namespace drift::ctl::config_text
