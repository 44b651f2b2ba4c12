#include "ctl/status_query.h"

#include <variant>

#include "protocol/codec.h"

namespace drift::ctl {

Result<StatusReply> query_status(ClientConnection& connection, std::chrono::milliseconds timeout) {
  if (Status s = connection.send(StatusRequest{}); !s) return s;
  auto msg = connection.receive(Clock::now() + timeout);
  if (!msg) return msg.status();
  if (auto* reply = std::get_if<StatusReply>(&*msg)) return std::move(*reply);
  return Status::error(connection.address() + " answered StatusRequest with " +
                       to_string(type_of(*msg)));
}

Result<StatusReply> query_status(const ConnectOptions& options, std::chrono::milliseconds timeout) {
  auto connection = ClientConnection::open(options);
  if (!connection) return connection.status();
  return query_status(**connection, timeout);
}

const NodeStatus* find_node(const StatusReply& reply, std::uint32_t node_id) {
  for (const auto& node : reply.nodes) {
    if (node.member.node_id == node_id) return &node;
  }
  return nullptr;
}

}  // namespace drift::ctl
