// The configs `driftctl cluster init | join-config` write (pure text work; cluster_command.cc does
// the files). init: the first PC's config — its identity set, the cluster's name and secret file,
// no seeds. join-config: from a running member's config, the next PC's — the office's settings
// kept, its identity set, the member (and the member's own seeds) as its seeds.
#pragma once

#include <cstdint>
#include <string>

#include <drift/status.h>

namespace drift::ctl {

struct MemberIdentity {
  std::uint32_t id = 0;
  std::string address;     // what the other members connect to
  std::uint16_t port = 0;  // 0: keep the base config's node.port (7400 if it has none)
  std::string name;        // node.name; empty: keep the base config's (or driftd's default)
};

// `base`: the config to start from (the installed /etc/drift/driftd.conf; may be empty).
std::string render_init_config(const std::string& base, const MemberIdentity& node,
                               const std::string& cluster_name, const std::string& secret_file,
                               const std::string& header);

// `member`: a running member's config text. Refuses a member config without node.address, or a
// new node with the member's own id or address:port, naming the value.
Result<std::string> render_join_config(const std::string& member, const MemberIdentity& node,
                                       const std::string& header);

}  // namespace drift::ctl
