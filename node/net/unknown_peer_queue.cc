#include "node/net/unknown_peer_queue.h"

namespace drift {

bool UnknownPeerQueue::hold(std::uint32_t node, WireMessage msg, std::size_t bytes,
                            Clock::time_point now, std::optional<Clock::duration> max_age) {
  auto it = nodes_.find(node);
  if (it == nodes_.end()) {
    if (nodes_.size() >= limits_.nodes) return false;
    it = nodes_.emplace(node, Held{now, limits_.max_age, 0, {}}).first;
  }
  Held& h = it->second;
  if (max_age && *max_age < h.max_age) h.max_age = *max_age;
  if (h.messages.size() >= limits_.messages_per_node || h.bytes + bytes > limits_.bytes_per_node) {
    return false;
  }
  h.bytes += bytes;
  h.messages.push_back(std::move(msg));
  return true;
}

std::vector<WireMessage> UnknownPeerQueue::take(std::uint32_t node) {
  std::vector<WireMessage> out;
  auto it = nodes_.find(node);
  if (it == nodes_.end()) return out;
  out.assign(std::make_move_iterator(it->second.messages.begin()),
             std::make_move_iterator(it->second.messages.end()));
  nodes_.erase(it);
  return out;
}

std::vector<UnknownPeerQueue::Expired> UnknownPeerQueue::expire(Clock::time_point now) {
  std::vector<Expired> out;
  for (auto it = nodes_.begin(); it != nodes_.end();) {
    if (now - it->second.since > it->second.max_age) {
      out.push_back({it->first, it->second.messages.size()});
      it = nodes_.erase(it);
    } else {
      ++it;
    }
  }
  return out;
}

std::size_t UnknownPeerQueue::held() const {
  std::size_t n = 0;
  for (const auto& [node, h] : nodes_) n += h.messages.size();
  return n;
}

}  // namespace drift
