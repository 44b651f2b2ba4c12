// The root's job queue (part of JobCoordinator, docs/architecture.md §6.7): a job that cannot
// start yet — no available node, its memory estimate above what the available nodes have free,
// or jobs.max_running jobs already running here — waits instead of failing, and starts, in the
// order the jobs came, once it fits (checked every second: an owner leaving their PC in the
// evening is enough). Its client follows it meanwhile, or attaches later; its owner or an admin
// may cancel it.
#include <spdlog/spdlog.h>

#include <algorithm>

#include "node/jobs/job_coordinator.h"
#include "node/jobs/job_admission.h"
#include "protocol/byte_size.h"

namespace drift {

std::string JobCoordinator::admission(const JobSpec& spec, const AppAnswer& app,
                                      const std::vector<std::uint64_t>& free_memory) const {
  if (max_running_ > 0 && jobs_.size() >= max_running_) {
    return std::to_string(jobs_.size()) + " job(s) running from this node (jobs.max_running = " +
           std::to_string(max_running_) + ")";
  }
  MemoryNeed need{spec.tasks, app.memory_per_task, spec.app + "'s estimate"};
  if (auto stated = memory_per_task(spec)) {
    need.per_task = *stated;
    need.source = "--memory";
  }
  return memory_shortfall(need, free_memory);
}

std::optional<std::uint64_t> JobCoordinator::memory_per_task(const JobSpec& spec) {
  const auto it = spec.runtime.find("memory");
  if (it == spec.runtime.end()) return std::nullopt;
  return parse_byte_size(it->second);
}

void JobCoordinator::enqueue(std::uint64_t id, JobSpec spec, const AppAnswer& app,
                             const ConnectionPtr& client, bool follow, const std::string& reason) {
  const std::string owner = owner_of(spec);
  const auto owned = std::count_if(queue_.begin(), queue_.end(),
                                   [&](const QueuedJob& q) { return owner_of(q.spec) == owner; });
  if (queue_.size() >= kMaxQueued || static_cast<std::size_t>(owned) >= kMaxQueuedPerOwner) {
    const std::string full =
        queue_.size() >= kMaxQueued
            ? "the queue of node " + std::to_string(messenger_.self_id()) + " is full (" +
                  std::to_string(kMaxQueued) + " jobs wait)"
            : owner + " has " + std::to_string(owned) + " jobs waiting at node " +
                  std::to_string(messenger_.self_id()) + " already, the most one may";
    spdlog::info("job of {} not queued: {}", owner, full);
    return reply(client, JobFailed{0, "cannot start yet (" + reason + ") and " + full});
  }
  QueuedJob queued{id, std::move(spec), app, follow ? client : nullptr,
                   std::chrono::steady_clock::now(), reason};
  spdlog::info("job {:#x}: {} with {} tasks waits in the queue ({} ahead): {}", id,
               queued.spec.app, queued.spec.tasks, queue_.size(), reason);
  reply(client, JobNotice{id, JobNoticeKind::kQueued, 0, 0, 0, 0, "queued: " + reason});
  if (!follow) reply(client, JobAccepted{id, messenger_.self_id()});
  queue_.push_back(std::move(queued));
}

void JobCoordinator::retry_queue() {
  for (std::size_t i = 0; i < queue_.size();) {
    QueuedJob& q = queue_[i];
    JobPlan plan = plan_job(q.spec, q.app);
    if (!plan.error.empty()) {  // e.g. the configuration changed under it: it never will
      QueuedJob gone = std::move(q);
      queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(i));
      spdlog::warn("job {:#x} failed in the queue: {}", gone.id, plan.error);
      reply(gone.client, JobFailed{gone.id, plan.error});
      JobEntry e = entry_of(gone);
      e.state = JobState::kFailed;
      e.reason = plan.error;
      keep_end(std::move(e), JobFailed{gone.id, plan.error});
      continue;
    }
    if (!plan.wait.empty()) {
      if (plan.wait != q.reason) {
        q.reason = plan.wait;
        reply(q.client, JobNotice{q.id, JobNoticeKind::kQueued, 0, 0, 0, 0, "queued: " + q.reason});
      }
      ++i;
      continue;
    }
    QueuedJob ready = std::move(q);
    queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(i));
    const double waited =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - ready.since).count();
    spdlog::info("job {:#x} leaves the queue after {:.1f} s", ready.id, waited);
    launch(ready.id, std::move(ready.spec), ready.app, std::move(plan), ready.client,
           /*follow=*/true);
  }
}

JobCoordinator::QueuedJob* JobCoordinator::find_queued(std::uint64_t id) {
  for (QueuedJob& q : queue_) {
    if (q.id == id) return &q;
  }
  return nullptr;
}

JobEntry JobCoordinator::entry_of(const QueuedJob& q) const {
  JobEntry e;
  e.job = q.id;
  e.app = q.spec.app;
  e.name = q.spec.runtime.count("name") ? q.spec.runtime.at("name") : q.spec.app;
  e.owner = owner_of(q.spec);
  e.state = JobState::kQueued;
  e.steps = q.spec.steps;
  e.tasks = q.spec.tasks;
  e.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - q.since).count();
  e.root = messenger_.self_id();
  e.reason = q.reason;
  return e;
}

bool JobCoordinator::attach_queued(const ConnectionPtr& client, std::uint64_t id) {
  QueuedJob* q = find_queued(id);
  if (!q) return false;
  const Principal& who = client->principal();
  if (auto refused = refuse_unless_owner(who, owner_of(q->spec), "JobAttach", "attach to")) {
    reply(client, *refused);
    return true;
  }
  q->client = client;
  spdlog::info("job {:#x}: {} attached (queued)", id, who.name);
  reply(client, JobNotice{id, JobNoticeKind::kQueued, 0, 0, 0, 0, "queued: " + q->reason});
  return true;
}

bool JobCoordinator::cancel_queued(const ConnectionPtr& client, std::uint64_t id) {
  QueuedJob* q = find_queued(id);
  if (!q) return false;
  const Principal& who = client->principal();
  if (auto refused = refuse_unless_owner(who, owner_of(q->spec), "JobCancel", "cancel")) {
    reply(client, *refused);
    return true;
  }
  const std::string reason = "cancelled by " + who.name + " while it waited in the queue";
  spdlog::info("job {:#x} {}", id, reason);
  JobEntry e = entry_of(*q);
  e.state = JobState::kCancelled;
  e.reason = reason;
  reply(q->client, JobFailed{id, reason});
  if (client != q->client) reply(client, JobFailed{id, reason});
  keep_end(std::move(e), JobFailed{id, reason});
  std::erase_if(queue_, [&](const QueuedJob& j) { return j.id == id; });
  return true;
}

}  // namespace drift
