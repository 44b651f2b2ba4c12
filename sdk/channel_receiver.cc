#include "sdk/channel_receiver.h"

#include <utility>

namespace drift {

std::uint64_t ChannelSender::next(TaskId to) { return ++last_sent_[to]; }

std::uint64_t ChannelReceiver::expected(const TaskId& from) const {
  const auto it = next_expected_.find(from);
  return it == next_expected_.end() ? 1 : it->second;
}

std::size_t ChannelReceiver::held() const { return held_count_; }

std::vector<TaskMessage> ChannelReceiver::accept(TaskMessage msg) {
  const TaskId from = msg.from;
  const std::uint64_t want = expected(from);
  if (msg.seq < want) {
    ++duplicates_;
    return {};
  }
  if (msg.seq > want) {
    if (msg.seq - want > kMaxAhead || held_count_ >= kMaxHeld) {
      ++refused_;
      return {};
    }
    if (held_[from].emplace(msg.seq, std::move(msg)).second) {
      ++held_count_;
    } else {
      ++duplicates_;
    }
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
    --held_count_;
  }
  if (early.empty()) held_.erase(channel);
}

}  // namespace drift
