#include "ctl/cluster_config.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "ctl/config_text.h"
#include "node/net/endpoint.h"

namespace drift::ctl {

namespace {

constexpr const char* kDefaultPort = "7400";

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    if (auto t = config_text::trim(item); !t.empty()) items.push_back(t);
  }
  return items;
}

std::string join_list(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

std::string with_identity(std::string text, const MemberIdentity& node) {
  text = config_text::set(text, "node.id", std::to_string(node.id));
  text = config_text::set(text, "node.address", node.address);
  if (node.port != 0) {
    text = config_text::set(text, "node.port", std::to_string(node.port));
  } else if (!config_text::sets(text, "node.port")) {
    text = config_text::set(text, "node.port", kDefaultPort);
  }
  if (!node.name.empty()) text = config_text::set(text, "node.name", node.name);
  return text;
}

// The text with its leading comment block (the installed file's "as installed ..." notes)
// replaced by `header`.
std::string with_header(const std::string& text, const std::string& header) {
  std::istringstream in(text);
  std::string rest, line;
  bool leading = true;
  while (std::getline(in, line)) {
    if (leading && (line.empty() || line.front() == '#')) continue;
    leading = false;
    rest += line + "\n";
  }
  return header + (rest.empty() ? "" : "\n" + rest);
}

}  // namespace

std::string render_init_config(const std::string& base, const MemberIdentity& node,
                               const std::string& cluster_name, const std::string& secret_file,
                               const std::string& header) {
  std::string text = with_identity(base, node);
  text = config_text::set(text, "cluster.name", cluster_name);
  text = config_text::set(text, "cluster.secret_file", secret_file);
  text = config_text::comment_out(text, "cluster.seeds", "the first member has no seeds");
  return with_header(text, header);
}

Result<std::string> render_join_config(const std::string& member, const MemberIdentity& node,
                                       const std::string& header) {
  const auto address = config_text::get(member, "node.address");
  if (!address || address->empty()) {
    return Status::error("the member's config sets no node.address: the new member would not "
                         "know where to join");
  }
  const std::string port = config_text::get(member, "node.port").value_or(kDefaultPort);
  auto member_endpoint = parse_endpoint(*address + ":" + port);
  if (!member_endpoint) {
    return Status::error("the member's node.address / node.port: " + member_endpoint.error());
  }
  if (const auto id = config_text::get(member, "node.id"); id && *id == std::to_string(node.id)) {
    return Status::error("--id " + std::to_string(node.id) +
                         ": the member whose config this is has that id already; every member "
                         "needs its own");
  }
  const std::string new_port = node.port != 0 ? std::to_string(node.port) : port;
  const std::string new_endpoint = node.address + ":" + new_port;
  if (new_endpoint == member_endpoint->to_string()) {
    return Status::error("--address " + new_endpoint + ": that is the member's own address");
  }
  std::vector<std::string> seeds{member_endpoint->to_string()};
  for (const auto& seed : split_list(config_text::get(member, "cluster.seeds").value_or(""))) {
    if (seed != new_endpoint && std::find(seeds.begin(), seeds.end(), seed) == seeds.end()) {
      seeds.push_back(seed);
    }
  }
  MemberIdentity identity = node;
  if (identity.port == 0) identity.port = static_cast<std::uint16_t>(member_endpoint->port);
  std::string text = with_identity(member, identity);
  if (node.name.empty()) text = config_text::comment_out(text, "node.name", "the member's name");
  text = config_text::set(text, "cluster.seeds", join_list(seeds));
  return with_header(text, header);
}

}  // namespace drift::ctl
