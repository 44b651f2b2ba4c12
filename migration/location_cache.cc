#include "migration/location_cache.h"

namespace drift {

void LocationCache::set_job(std::uint64_t job, const std::vector<std::uint32_t>& placement,
                            std::uint64_t epoch) {
  auto& tasks = jobs_[job];
  for (std::uint32_t i = 0; i < placement.size(); ++i) {
    tasks.try_emplace(i, Location{placement[i], epoch});
  }
}

void LocationCache::drop_job(std::uint64_t job) { jobs_.erase(job); }

bool LocationCache::update(TaskId task, std::uint32_t node, std::uint64_t epoch) {
  auto [it, inserted] = jobs_[task.job].try_emplace(task.index, Location{node, epoch});
  if (inserted) return true;
  if (epoch <= it->second.epoch) return false;
  it->second = Location{node, epoch};
  return true;
}

std::optional<Location> LocationCache::lookup(TaskId task) const {
  auto j = jobs_.find(task.job);
  if (j == jobs_.end()) return std::nullopt;
  auto t = j->second.find(task.index);
  if (t == j->second.end()) return std::nullopt;
  return t->second;
}

std::map<std::uint32_t, Location> LocationCache::job(std::uint64_t job) const {
  auto j = jobs_.find(job);
  return j == jobs_.end() ? std::map<std::uint32_t, Location>{} : j->second;
}

}  // namespace drift
