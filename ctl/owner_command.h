// `driftctl [--node HOST:PORT] reclaim [--wait] [--timeout S] | release`: the owner of the
// workstation at --node takes it back (its tasks migrate away, it takes no work until released)
// or gives it back to the pool (docs/architecture.md §9). reclaim --wait returns once the node is empty.
// Exit 0 done, 1 --wait timed out with tasks still there, 2 bad arguments, 3 no daemon.
#pragma once

#include <string>
#include <vector>

#include "ctl/connection_settings.h"
#include "protocol/messages.h"

namespace drift::ctl {

// "node 2 (ws-12): draining, 4 tasks leaving (reclaimed by command)" and the like.
std::string owner_summary(const OwnerReply& reply);

// `command` is "reclaim" or "release".
int owner_command(const std::string& command, const std::vector<std::string>& args,
                  ConnectionSettings settings);

}  // namespace drift::ctl
