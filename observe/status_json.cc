// The JSON of a StatusReply (status_json.h).
#include "observe/status_json.h"

#include <algorithm>

namespace drift {

std::vector<NodeStatus> sorted_nodes(const StatusReply& reply) {
  auto nodes = reply.nodes;
  std::sort(nodes.begin(), nodes.end(), [](const NodeStatus& a, const NodeStatus& b) {
    return a.member.node_id < b.member.node_id;
  });
  return nodes;
}

const char* member_name(MemberState s) {
  switch (s) {
    case MemberState::kAlive:
      return "alive";
    case MemberState::kSuspect:
      return "suspect";
    case MemberState::kDead:
      return "dead";
  }
  return "unknown";
}

const char* owner_name(OwnerState s) {
  switch (s) {
    case OwnerState::kAvailable:
      return "available";
    case OwnerState::kSuspended:
      return "suspended";
    case OwnerState::kDraining:
      return "draining";
    case OwnerState::kReclaimed:
      return "reclaimed";
  }
  return "unknown";
}

// One word per node: the failure detector's verdict if it has doubts, else the owner's state.
const char* state_name(const NodeStatus& n) {
  if (n.member.state != MemberState::kAlive) return member_name(n.member.state);
  return owner_name(n.load.owner);
}

nlohmann::json node_json(const NodeStatus& n) {
  return {{"id", n.member.node_id},
          {"name", n.member.name},
          {"address", n.member.address},
          {"state", state_name(n)},
          {"member", member_name(n.member.state)},
          {"incarnation", n.member.incarnation},
          {"tasks", n.load.task_count},
          {"load", n.load.task_load},
          {"capacity", n.load.capacity},
          {"load_average", n.load.load_average},
          {"utilization", n.load.utilization},
          {"step_floor", n.load.step_floor},
          {"free_memory_bytes", n.load.free_memory_bytes},
          {"owner", owner_name(n.load.owner)},
          {"migrations_out", n.counters.migrations_out},
          {"migrations_in", n.counters.migrations_in},
          {"bytes_moved", n.counters.bytes_moved},
          {"messages_forwarded", n.counters.messages_forwarded},
          {"location_updates", n.counters.location_updates},
          {"suspicions", n.counters.suspicions},
          {"deaths_declared", n.counters.deaths_declared},
          {"refutations", n.counters.refutations},
          {"fences", n.counters.fences},
          {"heartbeats_received", n.counters.heartbeats_received},
          {"late_heartbeats", n.counters.late_heartbeats},
          {"longest_heartbeat_gap_ms", n.counters.longest_gap_ms},
          {"longest_stall_ms", n.counters.longest_stall_ms},
          {"refused", n.counters.refused}};
}

nlohmann::json status_json(const StatusReply& reply) {
  auto nodes = nlohmann::json::array();
  for (const auto& n : sorted_nodes(reply)) nodes.push_back(node_json(n));
  return {{"responder", reply.responder}, {"nodes", nodes}};
}

}  // namespace drift
