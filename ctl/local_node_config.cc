#include "ctl/local_node_config.h"

#include <algorithm>
#include <sstream>

#include "ctl/config_text.h"

namespace drift::ctl {

namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ",") + item;
  return out;
}

}  // namespace

const std::vector<std::string>& local_node_keys() {
  static const std::vector<std::string> keys = {
      "node.id",       "node.name",           "node.address",  "node.port",
      "node.data_dir", "cluster.secret_file", "cluster.seeds", "log.file",
      "http.listen"};
  return keys;
}

std::string strip_owned_keys(const std::string& base_config) {
  std::string out = base_config;
  for (const auto& key : local_node_keys()) {
    out = config_text::comment_out(out, key, "set per node by driftctl local up");
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
  out << "\n[http]\nlisten = " << node.http_listen << "\n";
  if (!config_text::sets(base_config, "owner.policy")) {
    out << "\n# Daemons sharing one machine share its owner: owner reclaim is off unless the base\n"
           "# config or --owner.policy turns it on.\n"
        << "[owner]\npolicy = never\n";
  }
  return out.str();
}

}  // namespace drift::ctl
