// One TasksRequest -> TasksReply round trip (`driftctl tasks`): every task of every running job,
// as the daemon at --node gathers it from the nodes hosting them.
#pragma once

#include <chrono>

#include "ctl/client_connection.h"
#include "protocol/messages.h"

namespace drift::ctl {

Result<TasksReply> query_tasks(ClientConnection& connection, std::chrono::milliseconds timeout);

}  // namespace drift::ctl
