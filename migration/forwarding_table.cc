#include "migration/forwarding_table.h"

namespace drift {

void ForwardingTable::add(TaskId task, std::uint32_t dest, std::uint64_t epoch, TimePoint now) {
  auto it = pointers_.find(task);
  if (it != pointers_.end() && it->second.epoch >= epoch) return;
  ForwardingPointer p;
  p.dest = dest;
  p.epoch = epoch;
  p.last_used = now;
  if (it != pointers_.end()) p.forwarded = it->second.forwarded;
  pointers_[task] = std::move(p);
}

void ForwardingTable::remove(TaskId task) { pointers_.erase(task); }

ForwardingPointer* ForwardingTable::find(TaskId task) {
  auto it = pointers_.find(task);
  return it == pointers_.end() ? nullptr : &it->second;
}

bool ForwardingTable::forwarded(TaskId task, std::uint32_t sender_node, TimePoint now) {
  ForwardingPointer* p = find(task);
  if (!p) return false;
  ++p->forwarded;
  p->last_used = now;
  if (sender_node == p->dest) return false;
  return p->told.insert(sender_node).second;
}

std::size_t ForwardingTable::expire(TimePoint now, std::chrono::milliseconds ttl) {
  return std::erase_if(pointers_, [&](const auto& entry) {
    return now - entry.second.last_used >= ttl;
  });
}

void ForwardingTable::drop_job(std::uint64_t job) {
  std::erase_if(pointers_, [&](const auto& entry) { return entry.first.job == job; });
}

}  // namespace drift
