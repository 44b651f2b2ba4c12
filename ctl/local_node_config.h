// The driftd config of one daemon of a local cluster: the base config's text first (cluster name,
// heartbeat, log level ...), then the keys that make this daemon distinct. Keys of the base config
// that local up sets itself (node id, name, address, port, data_dir; cluster secret_file and
// seeds; http.listen; log file) are commented out, so the result never sets a key twice. Unless
// the base config sets owner.policy, owner reclaim is off (policy never): the daemons share one
// machine's owner.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace drift::ctl {

struct LocalNodeSettings {
  std::uint32_t id = 0;
  std::string name;
  std::string address = "127.0.0.1";
  std::uint16_t port = 0;
  std::filesystem::path data_dir;
  std::filesystem::path secret_file;
  std::vector<std::string> seeds;  // host:port; empty for the first node
  std::string http_listen = "off";  // http.listen: host:port, or off
};

// "node.id", "cluster.seeds", ...: the INI keys render_local_node_config() owns.
const std::vector<std::string>& local_node_keys();

// The base config with the owned keys commented out; the text is kept otherwise.
std::string strip_owned_keys(const std::string& base_config);

std::string render_local_node_config(const std::string& base_config, const LocalNodeSettings& node);

}  // namespace drift::ctl
