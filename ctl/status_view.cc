// Rendering of `driftctl status` (status_view.h).
#include "ctl/status_view.h"

#include <algorithm>
#include <cstdio>

#include "ctl/human_bytes.h"
#include "observe/status_json.h"
#include "ctl/text_table.h"

namespace drift::ctl {

namespace {

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

std::string mebibytes(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// MIGR: "out/in".
std::string migrations(const NodeCounters& c) {
  return std::to_string(c.migrations_out) + "/" + std::to_string(c.migrations_in);
}

// A dead node's load is the last it sent: no longer true, so not shown ("-").
std::vector<std::string> table_row(const NodeStatus& n) {
  const bool dead = n.member.state == MemberState::kDead;
  const auto live = [&](std::string text) { return dead ? std::string("-") : text; };
  return {std::to_string(n.member.node_id),
          n.member.name,
          n.member.address,
          state_name(n),
          std::to_string(n.member.incarnation),
          live(std::to_string(n.load.task_count)),
          live(fixed(n.load.task_load, 1)),
          live(fixed(n.load.capacity, 1)),
          live(fixed(n.load.load_average, 2)),
          live(fixed(n.load.utilization, 3)),
          live(mebibytes(n.load.free_memory_bytes)),
          migrations(n.counters),
          human_bytes(n.counters.bytes_moved),
          std::to_string(n.counters.messages_forwarded),
          std::to_string(n.counters.location_updates)};
}

}  // namespace

std::string status_table(const StatusReply& reply) {
  TextTable table({"ID", "NAME", "ADDRESS", "STATE", "INCARNATION", "TASKS", "LOAD", "CAPACITY",
                   "LOADAVG", "UTIL", "FREE MEM", "MIGR", "MOVED", "FWD", "LOCUPD"});
  for (std::size_t c : {0, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}) table.align_right(c);
  for (const auto& node : sorted_nodes(reply)) table.add_row(table_row(node));
  return table.render();
}

}  // namespace drift::ctl
