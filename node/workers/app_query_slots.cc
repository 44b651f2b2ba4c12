// Slots for questions to applications (app_query_slots.h).
#include "node/workers/app_query_slots.h"

namespace drift {

std::optional<std::string> AppQuerySlots::take(AppQueryKind kind, const std::string& owner,
                                               Start start) {
  if (kind == AppQueryKind::kValidate) {
    if (running_ >= kAtOnce) {
      return "this node is answering " + std::to_string(running_) +
             " questions to applications already; try again in a moment";
    }
    if (auto it = checks_.find(owner); it != checks_.end() && it->second >= kChecksPerOwner) {
      return "this node is checking " + std::to_string(it->second) + " jobs of " + owner +
             "'s already; try again in a moment";
    }
  } else if (running_ >= kAtOnce) {
    waiting_.push_back({kind, owner, std::move(start)});
    return std::nullopt;
  }
  run(kind, owner, start);
  return std::nullopt;
}

void AppQuerySlots::release(AppQueryKind kind, const std::string& owner) {
  --running_;
  if (kind == AppQueryKind::kValidate) {
    if (auto it = checks_.find(owner); it != checks_.end() && --it->second <= 0) checks_.erase(it);
  }
  if (running_ < kAtOnce && !waiting_.empty()) {
    Waiting next = std::move(waiting_.front());
    waiting_.pop_front();
    run(next.kind, next.owner, next.start);
  }
}

void AppQuerySlots::run(AppQueryKind kind, const std::string& owner, const Start& start) {
  ++running_;
  if (kind == AppQueryKind::kValidate) ++checks_[owner];
  start();
}

}  // namespace drift
