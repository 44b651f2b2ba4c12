#include "node/jobs/job_archive.h"

#include <algorithm>

namespace drift {

namespace {

// Roughly what an end holds in memory: its texts and its per-step times.
std::size_t size_of(const JobArchive::End& end, const JobEntry& entry) {
  std::size_t bytes = sizeof(JobEntry) + entry.name.size() + entry.owner.size() +
                      entry.reason.size() + 4 * entry.nodes.size();
  if (const auto* result = std::get_if<JobResult>(&end)) {
    bytes += result->checksum.size() + 8 * result->step_s.size();
    for (const auto& [key, value] : result->details) bytes += key.size() + value.size();
  } else {
    bytes += std::get<JobFailed>(end).reason.size();
  }
  return bytes;
}

}  // namespace

void JobArchive::add(JobEntry entry, End end, Clock::time_point now) {
  expire(now);
  forget(entry.job);
  const std::uint64_t id = entry.job;
  Kept kept{std::move(entry), std::move(end), now, 0};
  kept.bytes = size_of(kept.end, kept.entry);
  bytes_ += kept.bytes;
  kept_.emplace(id, std::move(kept));
  order_.push_back(id);
  while (kept_.size() > kMaxKept || (bytes_ > kMaxBytes && kept_.size() > 1)) drop_oldest();
}

const JobArchive::Kept* JobArchive::find(std::uint64_t job) const {
  const auto it = kept_.find(job);
  return it == kept_.end() ? nullptr : &it->second;
}

bool JobArchive::forget(std::uint64_t job) {
  const auto it = kept_.find(job);
  if (it == kept_.end()) return false;
  bytes_ -= it->second.bytes;
  kept_.erase(it);
  if (on_drop_) on_drop_(job);
  return true;
}

std::vector<JobEntry> JobArchive::entries(Clock::time_point now) {
  expire(now);
  std::vector<JobEntry> out;
  for (std::uint64_t id : order_) {
    const auto it = kept_.find(id);
    if (it == kept_.end()) continue;
    JobEntry e = it->second.entry;
    e.ended_ago_s = std::chrono::duration<double>(now - it->second.ended).count();
    out.push_back(std::move(e));
  }
  return out;
}

void JobArchive::expire(Clock::time_point now) {
  while (!order_.empty()) {
    const auto it = kept_.find(order_.front());
    if (it != kept_.end() && now - it->second.ended < keep_) break;
    if (it != kept_.end()) forget(it->first);
    order_.pop_front();
  }
}

void JobArchive::drop_oldest() {
  while (!order_.empty()) {
    const std::uint64_t id = order_.front();
    order_.pop_front();
    if (forget(id)) return;
  }
}

}  // namespace drift
