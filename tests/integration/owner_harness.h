// What the owner-reclaim integration tests share: the daemon settings that make a node's owner a
// file the test touches (every other input off, fast polls), touching it, and asking a node for
// its own owner state and task count.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "ctl/client_connection.h"
#include "protocol/messages.h"

namespace drift::test {

// --owner.policy=POLICY with `activity_file` as the only owner input, polled every 100 ms; a key
// given in `more` ("--owner.load=true") replaces its default here.
std::vector<std::string> owner_args(const std::string& policy,
                                    const std::filesystem::path& activity_file,
                                    const std::vector<std::string>& more = {});

// The owner was here just now: creates the file or sets its modification time to now.
void touch_now(const std::filesystem::path& file);

// Node `id` as its own daemon (at `options`) reports it.
Result<NodeStatus> own_status(const ctl::ConnectOptions& options, std::uint32_t id);

// Until node `id` reports owner state `state` (and, if `empty`, no task); false at `timeout`.
bool wait_for_owner_state(const ctl::ConnectOptions& options, std::uint32_t id, OwnerState state,
                          std::chrono::milliseconds timeout, bool empty = false);

}  // namespace drift::test
