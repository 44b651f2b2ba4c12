// What the daemons of a test cluster say about each other, for the failure-detection tests: one
// status round trip per question (a fresh connection each time, so a stopped or fenced daemon
// never leaves a stale one behind), and counts of telling lines in their logs.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "ctl/local_cluster.h"
#include "protocol/messages.h"

namespace drift::test {

class MembershipView {
 public:
  explicit MembershipView(const ctl::LocalCluster& cluster) : cluster_(cluster) {}

  // Node k's status reply, or nothing if it does not answer within `timeout`.
  std::optional<StatusReply> status(int k, std::chrono::milliseconds timeout) const;
  // Node k's entry for `node_id` (its own entry when node_id == k).
  std::optional<NodeStatus> entry(int k, std::uint32_t node_id) const;
  // True if any of the nodes 1..N other than `except` lists any member as dead.
  bool anyone_reports_a_death(int except = 0) const;
  // How many lines of node k's log contain `text`.
  int log_lines(int k, const std::string& text) const;
  // How many times some log says that node `victim` was declared dead.
  int deaths_logged(int victim) const;

 private:
  const ctl::LocalCluster& cluster_;
};

}  // namespace drift::test
