// driftd's /metrics: what one node knows of itself, in the Prometheus text exposition format
// (version 0.0.4). Every family has # HELP and # TYPE; names start with drift_, values are in
// base units (seconds, bytes), counters end in _total; label values are escaped.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>

#include "protocol/messages.h"

namespace drift {

struct NodeMetrics {
  NodeStatus self;  // this node: its member info, load index and counters
  std::string version;
  double uptime_s = 0;
  std::array<std::uint32_t, kMemberStateMax + 1> members{};  // by MemberState, itself included
  std::uint32_t jobs_running = 0, jobs_queued = 0;           // rooted here
  std::uint32_t worker_processes = 0;
  std::uint64_t checkpoint_copies = 0, checkpoint_bytes = 0;  // held here now
  std::uint64_t copies_kept = 0, copies_kept_bytes = 0;       // kept here since start
  // Of the jobs rooted here since start.
  std::uint64_t jobs_done = 0, jobs_failed = 0, jobs_cancelled = 0, recoveries = 0,
                steps_recomputed = 0;
  std::uint64_t checkpoints_committed = 0;
  std::uint64_t http_requests = 0;                            // answered by this endpoint
  std::uint64_t heartbeat_received_bytes = 0, balance_received_bytes = 0;
  // Refused connections and dropped messages by reason ("frame", "forged_sender", ...); the
  // total is self.counters.refused.
  std::map<std::string, std::uint64_t> refused;
};

std::string metrics_text(const NodeMetrics& m);

// "a\"b" for a"b: a label value as the format wants it (backslash, quote and newline escaped).
std::string escape_label(const std::string& value);

}  // namespace drift
