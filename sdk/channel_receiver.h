// Per-channel sequencing (docs/architecture.md §6): every (sender task, receiver task) channel numbers its
// messages from 1, and the receiver delivers them in order, exactly once. Both sides' state is
// part of the task's state and travels with it on migration. Not thread-safe (one per task).
#pragma once

#include <cereal/types/map.hpp>
#include <cereal/types/vector.hpp>
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "protocol/messages.h"
#include "protocol/wire_types.h"

namespace drift {

// Numbers a task's outgoing messages per destination task; the first message to each is 1.
class ChannelSender {
 public:
  std::uint64_t next(TaskId to);

  template <class Archive>
  void serialize(Archive& ar) {
    ar(last_sent_);
  }

 private:
  std::map<TaskId, std::uint64_t> last_sent_;
};

// Holds early arrivals per sending task and releases them in order. A message whose seq was
// already delivered or is already held is a duplicate: dropped and counted. seq 0 never comes
// from a ChannelSender and counts as a duplicate. What a hostile peer could make it hold is
// bounded: a message more than kMaxAhead ahead of its channel, or one more while kMaxHeld are
// held, is refused (dropped and counted; no sender of ours gets that far ahead, since a step's
// reduction holds every task within a few steps of the others).
class ChannelReceiver {
 public:
  static constexpr std::uint64_t kMaxAhead = std::uint64_t{1} << 24;
  static constexpr std::size_t kMaxHeld = std::size_t{1} << 20;

  // The messages deliverable now that `msg` arrived, in channel order (empty if msg is early or
  // a duplicate).
  std::vector<TaskMessage> accept(TaskMessage msg);

  // The seq the channel from `from` delivers next.
  std::uint64_t next_expected(const TaskId& from) const { return expected(from); }
  std::size_t held() const;
  std::uint64_t duplicates() const { return duplicates_; }
  std::uint64_t refused() const { return refused_; }  // not part of the task's state

  template <class Archive>
  void save(Archive& ar) const {
    ar(next_expected_, held_, duplicates_);
  }
  template <class Archive>
  void load(Archive& ar) {
    ar(next_expected_, held_, duplicates_);
    held_count_ = 0;
    for (const auto& [from, early] : held_) held_count_ += early.size();
  }

 private:
  std::uint64_t expected(const TaskId& from) const;
  void release_held(const TaskId& from, std::vector<TaskMessage>& out);

  std::map<TaskId, std::uint64_t> next_expected_;                // absent = 1
  std::map<TaskId, std::map<std::uint64_t, TaskMessage>> held_;  // by sender, then seq
  std::uint64_t duplicates_ = 0;
  std::size_t held_count_ = 0;  // held()
  std::uint64_t refused_ = 0;
};

}  // namespace drift
