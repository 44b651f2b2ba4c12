// Rendering of `driftctl status` (status_view.h).
#include "ctl/status_view.h"

#include <algorithm>
#include <cstdio>

#include "ctl/human_bytes.h"
#include "ctl/text_table.h"

namespace drift::ctl {

namespace {

std::vector<NodeStatus> sorted_nodes(const StatusReply& reply) {
  auto nodes = reply.nodes;
  std::sort(nodes.begin(), nodes.end(), [](const NodeStatus& a, const NodeStatus& b) {
    return a.member.node_id < b.member.node_id;
  });
  return nodes;
}

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// The names the JSON contract promises, independent of the wire type's to_string().
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

std::string mebibytes(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// MIGR: "out/in".
std::string migrations(const NodeCounters& c) {
  return std::to_string(c.migrations_out) + "/" + std::to_string(c.migrations_in);
}

std::vector<std::string> table_row(const NodeStatus& n) {
  return {std::to_string(n.member.node_id),
          n.member.name,
          n.member.address,
          state_name(n),
          std::to_string(n.member.incarnation),
          std::to_string(n.load.task_count),
          fixed(n.load.task_load, 1),
          fixed(n.load.capacity, 1),
          fixed(n.load.load_average, 2),
          fixed(n.load.utilization, 3),
          mebibytes(n.load.free_memory_bytes),
          migrations(n.counters),
          human_bytes(n.counters.bytes_moved),
          std::to_string(n.counters.messages_forwarded),
          std::to_string(n.counters.location_updates)};
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

}  // namespace

std::string status_table(const StatusReply& reply) {
  TextTable table({"ID", "NAME", "ADDRESS", "STATE", "INCARNATION", "TASKS", "LOAD", "CAPACITY",
                   "LOADAVG", "UTIL", "FREE MEM", "MIGR", "MOVED", "FWD", "LOCUPD"});
  for (std::size_t c : {0, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}) table.align_right(c);
  for (const auto& node : sorted_nodes(reply)) table.add_row(table_row(node));
  return table.render();
}

nlohmann::json status_json(const StatusReply& reply) {
  auto nodes = nlohmann::json::array();
  for (const auto& n : sorted_nodes(reply)) nodes.push_back(node_json(n));
  return {{"responder", reply.responder}, {"nodes", nodes}};
}

}  // namespace drift::ctl
