#include "tests/integration/membership_view.h"

#include <fstream>

#include "ctl/status_query.h"

namespace drift::test {

std::optional<StatusReply> MembershipView::status(int k, std::chrono::milliseconds timeout) const {
  auto options = cluster_.connect_options(k);
  if (!options) return std::nullopt;
  auto reply = ctl::query_status(*options, timeout);
  if (!reply) return std::nullopt;
  return std::move(reply).value();
}

std::optional<NodeStatus> MembershipView::entry(int k, std::uint32_t node_id) const {
  auto reply = status(k, std::chrono::milliseconds(1000));
  if (!reply) return std::nullopt;
  const NodeStatus* n = ctl::find_node(*reply, node_id);
  if (n == nullptr) return std::nullopt;
  return *n;
}

bool MembershipView::anyone_reports_a_death(int except) const {
  for (int k = 1; k <= cluster_.nodes(); ++k) {
    if (k == except) continue;
    auto reply = status(k, std::chrono::milliseconds(1000));
    if (!reply) continue;
    for (const NodeStatus& n : reply->nodes) {
      if (n.member.state == MemberState::kDead) return true;
    }
  }
  return false;
}

int MembershipView::log_lines(int k, const std::string& text) const {
  std::ifstream in(cluster_.log_file(k));
  int count = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.find(text) != std::string::npos) ++count;
  }
  return count;
}

int MembershipView::deaths_logged(int victim) const {
  int count = 0;
  const std::string needle = "node " + std::to_string(victim) + " node" + std::to_string(victim);
  for (int k = 1; k <= cluster_.nodes(); ++k) {
    std::ifstream in(cluster_.log_file(k));
    for (std::string line; std::getline(in, line);) {
      if (line.find(needle) != std::string::npos && line.find("declared dead") != std::string::npos) {
        ++count;
      }
    }
  }
  return count;
}

}  // namespace drift::test
