#include "node/location_table.h"

namespace drift {

void LocationTable::set_job(std::uint64_t job, std::vector<std::uint32_t> placement) {
  jobs_[job] = std::move(placement);
}

void LocationTable::drop_job(std::uint64_t job) { jobs_.erase(job); }

std::optional<std::uint32_t> LocationTable::node_of(TaskId task) const {
  auto it = jobs_.find(task.job);
  if (it == jobs_.end() || task.index >= it->second.size()) return std::nullopt;
  return it->second[task.index];
}

}  // namespace drift
