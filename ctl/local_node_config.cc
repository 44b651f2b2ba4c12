#include "ctl/local_node_config.h"

#include <algorithm>
#include <sstream>

namespace drift::ctl {

namespace {

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// The section a "[name]" line opens, or "" when the line is not a section header.
std::string section_of(const std::string& line) {
  if (line.size() < 2 || line.front() != '[' || line.back() != ']') return "";
  return trim(line.substr(1, line.size() - 2));
}

// "section.key" for a "key = value" line, or "" for comments and blank lines.
std::string key_of(const std::string& line, const std::string& section) {
  if (line.empty() || line.front() == '#' || line.front() == ';') return "";
  const auto eq = line.find('=');
  if (eq == std::string::npos) return "";
  const std::string key = trim(line.substr(0, eq));
  return section.empty() ? key : section + "." + key;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ",") + item;
  return out;
}

bool sets_key(const std::string& config, const std::string& wanted) {
  std::istringstream in(config);
  std::string section;
  for (std::string line; std::getline(in, line);) {
    const std::string text = trim(line);
    if (const auto s = section_of(text); !s.empty()) section = s;
    if (key_of(text, section) == wanted) return true;
  }
  return false;
}

}  // namespace

const std::vector<std::string>& local_node_keys() {
  static const std::vector<std::string> keys = {
      "node.id",       "node.name",           "node.address",  "node.port",
      "node.data_dir", "cluster.secret_file", "cluster.seeds", "log.file"};
  return keys;
}

std::string strip_owned_keys(const std::string& base_config) {
  std::istringstream in(base_config);
  std::string out, section;
  for (std::string line; std::getline(in, line);) {
    const std::string text = trim(line);
    if (const auto s = section_of(text); !s.empty()) section = s;
    const auto& owned = local_node_keys();
    if (std::find(owned.begin(), owned.end(), key_of(text, section)) != owned.end()) {
      out += "# (set per node by driftctl local up) " + line + "\n";
    } else {
      out += line + "\n";
    }
  }
  return out;
}

std::string render_local_node_config(const std::string& base_config,
                                     const LocalNodeSettings& node) {
  std::ostringstream out;
  out << "# Written by 'driftctl local up'; regenerated at every start.\n";
  if (!base_config.empty()) out << "\n" << strip_owned_keys(base_config);
  out << "\n# This daemon.\n"
      << "[node]\n"
      << "id = " << node.id << "\n"
      << "name = " << node.name << "\n"
      << "address = " << node.address << "\n"
      << "port = " << node.port << "\n"
      << "data_dir = " << node.data_dir.string() << "\n"
      << "\n[cluster]\n"
      << "secret_file = " << node.secret_file.string() << "\n";
  if (!node.seeds.empty()) out << "seeds = " << join(node.seeds) << "\n";
  if (!sets_key(base_config, "owner.policy")) {
    out << "\n# Daemons sharing one machine share its owner: owner reclaim is off unless the base\n"
           "# config or --owner.policy turns it on.\n"
        << "[owner]\npolicy = never\n";
  }
  return out.str();
}

}  // namespace drift::ctl
