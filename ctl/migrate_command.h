// `driftctl migrate JOB:INDEX NODE_ID [--timeout SECONDS]`: asks the daemon at --node to move one
// task to node NODE_ID and waits for the outcome (default 60 s: a large state takes a while).
// JOB is written as `run` and `tasks` print it (hex with 0x, or decimal; task_id_text.h).
// Exit 0 moved, 1 the daemon refused or the move failed (its reason is printed), 2 bad
// arguments, 3 no daemon, the connection was lost or no answer came in time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ctl/connection_settings.h"
#include "protocol/messages.h"

namespace drift::ctl {

// The two positional arguments, checked; errors name the bad value.
Result<MigrateRequest> parse_migrate_target(const std::vector<std::string>& positional);
// A node id: a decimal number from 1 to 2^32-1.
Result<std::uint32_t> parse_node_id(const std::string& text);

int migrate_command(const std::vector<std::string>& args, ConnectionSettings settings);

}  // namespace drift::ctl
