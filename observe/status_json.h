// A StatusReply as JSON — the one shape `driftctl status --json` prints and driftd's
// /api/status serves ({"responder":…, "nodes":[{"id","name","address","state","member",
// "incarnation","tasks","load","capacity","load_average","utilization","step_floor","free_memory_bytes",
// "owner", and the node's counters}]}), nodes sorted by id — and the names it uses for states.
// "state" is one word: suspect or dead when the failure detector says so, else the owner state
// (available, suspended, draining, reclaimed); "member" (alive|suspect|dead) and "owner" are its
// two halves.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "protocol/messages.h"

namespace drift {

// The names the JSON contract (and the metrics' labels) promise, independent of the wire type's
// to_string().
const char* member_name(MemberState s);
const char* owner_name(OwnerState s);
// One word per node: the failure detector's verdict if it has doubts, else the owner's state.
const char* state_name(const NodeStatus& n);
std::vector<NodeStatus> sorted_nodes(const StatusReply& reply);

nlohmann::json node_json(const NodeStatus& n);
nlohmann::json status_json(const StatusReply& reply);

}  // namespace drift
