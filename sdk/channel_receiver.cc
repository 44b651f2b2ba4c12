#include "sdk/channel_receiver.h"

#include <utility>

namespace drift {

std::uint64_t ChannelSender::next(TaskId to) { return ++last_sent_[to]; }

std::uint64_t ChannelReceiver::expected(const TaskId& from) const {
  const auto it = next_expected_.find(from);
  return it == next_expected_.end() ? 1 : it->second;
}

std::size_t ChannelReceiver::held() const {
  std::size_t count = 0;
  for (const auto& [from, early] : held_) count += early.size();
  return count;
}

std::vector<TaskMessage> ChannelReceiver::accept(TaskMessage msg) {
  const TaskId from = msg.from;
  const std::uint64_t want = expected(from);
  if (msg.seq < want) {
    ++duplicates_;
    return {};
  }
  if (msg.seq > want) {
    if (!held_[from].emplace(msg.seq, std::move(msg)).second) ++duplicates_;
    return {};
  }
  std::vector<TaskMessage> out;
  out.push_back(std::move(msg));
  next_expected_[from] = want + 1;
  release_held(from, out);
  return out;
}

// Moves the held messages that now follow without a gap into `out`.
void ChannelReceiver::release_held(const TaskId& from, std::vector<TaskMessage>& out) {
  const auto channel = held_.find(from);
  if (channel == held_.end()) return;
  auto& early = channel->second;
  std::uint64_t& want = next_expected_[from];
  for (auto it = early.begin(); it != early.end() && it->first == want; it = early.erase(it)) {
    out.push_back(std::move(it->second));
    ++want;
  }
  if (early.empty()) held_.erase(channel);
}

}  // namespace drift
