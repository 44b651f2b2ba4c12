// One StatusRequest -> StatusReply round trip: what `driftctl status` and `local up` (waiting
// for the daemons to see each other) and the integration tests ask a daemon.
#pragma once

#include <chrono>

#include "ctl/client_connection.h"
#include "protocol/messages.h"

namespace drift::ctl {

Result<StatusReply> query_status(ClientConnection& connection, std::chrono::milliseconds timeout);

// Connects, handshakes and asks; for pollers that want a fresh connection each time.
Result<StatusReply> query_status(const ConnectOptions& options, std::chrono::milliseconds timeout);

// The entry for `node_id` in the reply, or nullptr when the responder does not list it.
const NodeStatus* find_node(const StatusReply& reply, std::uint32_t node_id);

}  // namespace drift::ctl
