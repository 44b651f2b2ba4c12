#include "node/jobs/job_checkpoints.h"

#include <algorithm>
#include <string>
#include <utility>

namespace drift {

JobCheckpoints::JobCheckpoints(std::uint32_t tasks, CheckpointPolicy policy, TimePoint start)
    : tasks_(tasks), policy_(policy), last_(start) {}

bool JobCheckpoints::due(std::uint64_t step, std::uint64_t total, TimePoint now) const {
  if (step + 1 >= total) return false;  // the job ends with this step: nothing to save
  if (forced_) return true;
  if (!pending_.empty()) {
    const auto& [pending_step, pending] = *pending_.rbegin();
    const auto patience = 4 * std::max(policy_.interval, std::chrono::milliseconds(1000));
    const bool steps_up =
        policy_.every_steps > 0 && step >= pending_step + 4 * policy_.every_steps;
    const bool given_up = steps_up || now - pending.began >= patience;
    if (!given_up) return false;
  }
  if (policy_.every_steps > 0 && (step + 1) % policy_.every_steps == 0) return true;
  constexpr int kSpacing = 20;  // at most 1/20 of the job's time in checkpoints
  return policy_.interval.count() > 0 && now - last_ >= policy_.interval &&
         now - last_ >= kSpacing * last_cost_;
}

void JobCheckpoints::begin(std::uint64_t step, std::vector<double> values, TimePoint now) {
  Pending& p = pending_[step];
  p.began = now;
  p.values = std::move(values);
  last_ = now;
  forced_ = false;
}

bool JobCheckpoints::acknowledge(std::uint32_t task, std::uint64_t step, Copies copies,
                                 TimePoint now) {
  auto it = pending_.find(step);
  if (it == pending_.end() || task >= tasks_) return false;
  it->second.acks[task] = copies;
  if (it->second.acks.size() < tasks_) return false;
  if (now != TimePoint{} && now > it->second.began) last_cost_ = now - it->second.began;
  Committed c;
  c.step = step;
  c.values = std::move(it->second.values);
  c.copies.resize(tasks_);
  for (const auto& [index, where] : it->second.acks) c.copies[index] = where;
  committed_ = std::move(c);
  pending_.erase(pending_.begin(), std::next(it));
  return true;
}

void JobCheckpoints::rolled_back() {
  pending_.clear();
  forced_ = true;
}

bool JobCheckpoints::holds_copy(std::uint32_t node) const {
  if (!committed_) return false;
  for (const Copies& c : committed_->copies) {
    if (c.primary == node || c.buddy == node) return true;
  }
  return false;
}

void JobCheckpoints::lose_copies(std::uint32_t node) {
  auto lose = [node](Copies& c) {
    if (c.primary == node) c.lost_primary = std::exchange(c.primary, 0);
    if (c.buddy == node) c.lost_buddy = std::exchange(c.buddy, 0);
  };
  if (committed_) {
    for (Copies& c : committed_->copies) lose(c);
  }
  for (auto& [step, pending] : pending_) {
    for (auto& [task, copies] : pending.acks) lose(copies);
  }
}

bool JobCheckpoints::holder_gone(std::uint32_t node) {
  const bool renew = holds_copy(node) || !pending_.empty();
  lose_copies(node);
  if (renew) force_next();
  return renew;
}

std::size_t JobCheckpoints::regain_copies(std::uint32_t node, std::uint64_t step,
                                          const std::vector<std::uint32_t>& tasks) {
  if (!committed_ || committed_->step != step) return 0;
  std::size_t regained = 0;
  for (std::uint32_t t : tasks) {
    if (t >= committed_->copies.size()) continue;
    Copies& c = committed_->copies[t];
    if (c.primary == 0 && c.lost_primary == node) {
      c.primary = node;
      ++regained;
    } else if (c.buddy == 0 && c.lost_buddy == node) {
      c.buddy = node;
      ++regained;
    }
  }
  return regained;
}

Result<std::vector<std::uint32_t>> JobCheckpoints::restore_placement(
    const std::function<bool(std::uint32_t)>& alive) const {
  if (!committed_) return Status::error("no checkpoint has been committed");
  std::vector<std::uint32_t> placement;
  placement.reserve(tasks_);
  for (std::uint32_t t = 0; t < tasks_; ++t) {
    const Copies& c = committed_->copies[t];
    if (c.primary != 0 && alive(c.primary)) {
      placement.push_back(c.primary);
    } else if (c.buddy != 0 && alive(c.buddy)) {
      placement.push_back(c.buddy);
    } else {
      return Status::error("both copies of task " + std::to_string(t) + " at step " +
                           std::to_string(committed_->step + 1) + " were on failed nodes " +
                           std::to_string(c.primary ? c.primary : c.lost_primary) + " and " +
                           std::to_string(c.buddy ? c.buddy : c.lost_buddy));
    }
  }
  return placement;
}

}  // namespace drift
