// One MigrateRequest -> MigrationReport round trip (`driftctl migrate`). The daemon relays the
// request to the task's home and answers once the move is over, which for a large state can
// take a while. A refused or failed move is an outcome (report.ok false), not an error; errors
// are the connection's (lost, deadline passed, unexpected message).
#pragma once

#include "ctl/client_connection.h"
#include "protocol/messages.h"

namespace drift::ctl {

Result<MigrationReport> request_migration(ClientConnection& connection,
                                          const MigrateRequest& request,
                                          Clock::time_point deadline);

}  // namespace drift::ctl
