// A set that remembers only its last `capacity` insertions: bounded memory for "have we seen
// this id lately" questions (e.g. jobs that ended, so late traffic for them is refused).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <set>

namespace drift {

class RecentSet {
 public:
  explicit RecentSet(std::size_t capacity) : capacity_(capacity) {}

  void add(std::uint64_t id) {
    if (!members_.insert(id).second) return;
    order_.push_back(id);
    if (order_.size() > capacity_) {
      members_.erase(order_.front());
      order_.pop_front();
    }
  }
  bool contains(std::uint64_t id) const { return members_.count(id) > 0; }

 private:
  std::size_t capacity_;
  std::deque<std::uint64_t> order_;
  std::set<std::uint64_t> members_;
};

}  // namespace drift
