// One OwnerRequest -> OwnerReply round trip (`driftctl reclaim | release`, integration tests):
// the daemon acts at once and answers with its owner state right after.
#pragma once

#include "ctl/client_connection.h"
#include "protocol/messages.h"

namespace drift::ctl {

Result<OwnerReply> request_owner_action(ClientConnection& connection, OwnerAction action,
                                        Clock::time_point deadline);

// Connects, handshakes and asks.
Result<OwnerReply> request_owner_action(const ConnectOptions& options, OwnerAction action,
                                        Clock::time_point deadline);

}  // namespace drift::ctl
