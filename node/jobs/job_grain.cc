// The root's record of a job's decomposition (job_grain.h).
#include "node/jobs/job_grain.h"

#include <algorithm>

namespace drift {

JobGrain::JobGrain(std::uint32_t tasks, std::uint32_t spare) : tasks_(tasks) {
  for (std::uint32_t i = spare < tasks ? tasks - spare : 0; i < tasks; ++i) initial_spare_.insert(i);
  spare_ = initial_spare_;
}

void JobGrain::request(const GrainChange& change, std::uint32_t dest) {
  if (change.task >= tasks_ || spare(change.task)) return;
  if (change.kind == GrainKind::kMerge &&
      (change.partner >= tasks_ || change.partner == change.task || spare(change.partner))) {
    return;
  }
  for (const Request& q : queued_) {
    if (q.change.task == change.task) return;
  }
  queued_.push_back({change, dest});
}

std::vector<GrainChange> JobGrain::take(std::uint64_t step, const Locate& where) {
  std::vector<GrainChange> out;
  std::set<std::uint32_t> used;
  for (const Request& q : queued_) {
    GrainChange c = q.change;
    if (used.count(c.task) || spare(c.task)) continue;
    if (c.kind == GrainKind::kSplit) {
      const std::uint32_t home = where(c.task);
      auto first_spare = [&](auto&& wanted) -> std::optional<std::uint32_t> {
        for (std::uint32_t s : spare_) {
          if (!used.count(s) && wanted(s)) return s;
        }
        return std::nullopt;
      };
      std::optional<std::uint32_t> pick;
      if (q.dest != 0) pick = first_spare([&](std::uint32_t s) { return where(s) == q.dest; });
      if (!pick && home != 0) pick = first_spare([&](std::uint32_t s) { return where(s) == home; });
      if (!pick) pick = first_spare([](std::uint32_t) { return true; });
      if (!pick) continue;
      c.partner = *pick;
      spare_.erase(c.partner);
    } else {
      if (used.count(c.partner) || spare(c.partner)) continue;
      spare_.insert(c.partner);
    }
    used.insert(c.task);
    used.insert(c.partner);
    out.push_back(c);
  }
  queued_.clear();
  if (!out.empty()) announced_[step] = out;
  return out;
}

void JobGrain::rollback(std::optional<std::uint64_t> step) {
  queued_.clear();
  if (step) {
    announced_.erase(announced_.upper_bound(*step), announced_.end());
  } else {
    announced_.clear();
  }
  replay();
}

std::vector<GrainChange> JobGrain::at(std::uint64_t step) const {
  auto it = announced_.find(step);
  return it == announced_.end() ? std::vector<GrainChange>{} : it->second;
}

std::vector<StepGrainChange> JobGrain::history(std::uint64_t step) const {
  std::vector<StepGrainChange> out;
  for (auto it = announced_.begin(); it != announced_.end() && it->first <= step; ++it) {
    for (const GrainChange& c : it->second) out.push_back({it->first, c});
  }
  return out;
}

void JobGrain::adopt(const std::vector<StepGrainChange>& history) {
  announced_.clear();
  queued_.clear();
  for (const StepGrainChange& c : history) announced_[c.step].push_back(c.change);
  replay();
}

void JobGrain::replay() {
  spare_ = initial_spare_;
  for (const auto& [step, changes] : announced_) {
    for (const GrainChange& c : changes) {
      if (c.kind == GrainKind::kSplit) {
        spare_.erase(c.partner);
      } else {
        spare_.insert(c.partner);
      }
    }
  }
}

void JobGrain::stir(std::uint32_t n, const std::function<std::uint64_t()>& random) {
  for (std::uint32_t k = 0; k < n; ++k) {
    if (stirred_++ % 2 == 1) {
      // Undo a split still in effect (both halves still hold work), so merges happen too.
      std::vector<GrainChange> splits;
      for (const auto& [step, changes] : announced_) {
        for (const GrainChange& c : changes) {
          if (c.kind == GrainKind::kSplit && !spare(c.task) && !spare(c.partner)) splits.push_back(c);
        }
      }
      if (!splits.empty()) {
        const GrainChange& s = splits[random() % splits.size()];
        request({GrainKind::kMerge, s.task, s.partner}, 0);
        continue;
      }
    }
    request({GrainKind::kSplit, static_cast<std::uint32_t>(random() % tasks_), 0}, 0);
  }
}

std::uint32_t JobGrain::count(GrainKind kind) const {
  std::uint32_t n = 0;
  for (const auto& [step, changes] : announced_) {
    n += static_cast<std::uint32_t>(std::count_if(
        changes.begin(), changes.end(), [&](const GrainChange& c) { return c.kind == kind; }));
  }
  return n;
}

}  // namespace drift
