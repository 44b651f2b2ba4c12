#include "node/recovery/checkpoint_store.h"

namespace drift {

void CheckpointStore::put(TaskId task, std::uint64_t step, State state) {
  jobs_[task.job][step][task.index] = std::move(state);
}

CheckpointStore::State CheckpointStore::find(TaskId task, std::uint64_t step) const {
  auto job = jobs_.find(task.job);
  if (job == jobs_.end()) return nullptr;
  auto at = job->second.find(step);
  if (at == job->second.end()) return nullptr;
  auto copy = at->second.find(task.index);
  return copy == at->second.end() ? nullptr : copy->second;
}

void CheckpointStore::commit(std::uint64_t job, std::uint64_t step) {
  auto it = jobs_.find(job);
  if (it == jobs_.end()) return;
  it->second.erase(it->second.begin(), it->second.lower_bound(step));
}

void CheckpointStore::discard_after(std::uint64_t job, std::uint64_t step) {
  auto it = jobs_.find(job);
  if (it == jobs_.end()) return;
  it->second.erase(it->second.upper_bound(step), it->second.end());
}

void CheckpointStore::drop_job(std::uint64_t job) { jobs_.erase(job); }

std::vector<std::uint64_t> CheckpointStore::jobs() const {
  std::vector<std::uint64_t> out;
  out.reserve(jobs_.size());
  for (const auto& [job, steps] : jobs_) out.push_back(job);
  return out;
}

std::uint64_t CheckpointStore::bytes() const {
  std::uint64_t sum = 0;
  for (const auto& [job, steps] : jobs_) {
    for (const auto& [step, tasks] : steps) {
      for (const auto& [index, state] : tasks) sum += state ? state->size() : 0;
    }
  }
  return sum;
}

std::size_t CheckpointStore::copies() const {
  std::size_t n = 0;
  for (const auto& [job, steps] : jobs_) {
    for (const auto& [step, tasks] : steps) n += tasks.size();
  }
  return n;
}

std::vector<std::uint64_t> CheckpointStore::steps(std::uint64_t job) const {
  std::vector<std::uint64_t> out;
  auto it = jobs_.find(job);
  if (it == jobs_.end()) return out;
  for (const auto& [step, tasks] : it->second) out.push_back(step);
  return out;
}

std::vector<std::uint32_t> CheckpointStore::tasks(std::uint64_t job, std::uint64_t step) const {
  std::vector<std::uint32_t> out;
  auto it = jobs_.find(job);
  if (it == jobs_.end()) return out;
  auto at = it->second.find(step);
  if (at == it->second.end()) return out;
  for (const auto& [index, state] : at->second) out.push_back(index);
  return out;
}

}  // namespace drift
