// The root's job queue (part of JobCoordinator, docs/architecture.md §6.7): a job that cannot
// start yet — no available node, its memory estimate above what the available nodes have free,
// or jobs.max_running jobs already running here — waits instead of failing, and starts, in the
// order the jobs came, once it fits (checked every second: an owner leaving their PC in the
// evening is enough). Its client follows it meanwhile, or attaches later; its owner or an admin
// may cancel it. Its deputy keeps a record of it (QueuedJobRecord) and queues it if the root
// dies or leaves.
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
  send_queued_record(queue_.back(), current_deputy());
}

void JobCoordinator::send_queued_record(QueuedJob& q, std::uint32_t deputy) {
  if (!hand_record_to(q.id, q.deputy, deputy)) return;
  QueuedJobRecord r;
  r.job = q.id;
  r.root = messenger_.self_id();
  r.spec = q.spec;
  for (ReduceOp op : q.app.reduce_ops) r.reduce_ops.push_back(static_cast<std::uint8_t>(op));
  r.spare_tasks = q.app.spare_tasks;
  r.memory_per_task = q.app.memory_per_task;
  r.reason = q.reason;
  r.waited_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - q.since).count();
  messenger_.send_to_node(deputy, std::move(r));
}

void JobCoordinator::on_queued_record(const QueuedJobRecord& record) {
  if (jobs_.count(record.job) || find_queued(record.job) || records_.count(record.job)) return;
  if (!queued_records_.count(record.job) && queued_records_.size() >= kMaxQueuedRecords) {
    spdlog::warn("job {:#x}: node {}'s record of its queued job not kept: this node keeps {} "
                 "already, the most it may",
                 record.job, record.root, queued_records_.size());
    return;
  }
  queued_records_[record.job] = record;
}

void JobCoordinator::take_over_queued(const QueuedJobRecord& record, const std::string& why) {
  queued_records_.erase(record.job);
  AppAnswer app;
  app.ok = true;
  app.app = record.spec.app;
  app.spec = record.spec;
  for (std::uint8_t op : record.reduce_ops) {
    if (op > kReduceOpWireMax) {
      spdlog::warn("job {:#x}: {} and this deputy cannot queue it: reduce op {} out of range",
                   record.job, why, op);
      return;
    }
    app.reduce_ops.push_back(static_cast<ReduceOp>(op));
  }
  app.spare_tasks = record.spare_tasks;
  app.memory_per_task = record.memory_per_task;
  const auto waited = std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(std::clamp(record.waited_s, 0.0, 1e9)));
  spdlog::warn("job {:#x}: {}; this node, its deputy, queues it (waiting {:.0f} s so far: {})",
               record.job, why, record.waited_s, record.reason);
  queue_.push_back(QueuedJob{record.job, record.spec, std::move(app), nullptr,
                             std::chrono::steady_clock::now() - waited, record.reason});
  send_queued_record(queue_.back(), current_deputy());
}

void JobCoordinator::end_queued(const QueuedJob& q, JobState state, const std::string& reason) {
  JobEntry e = entry_of(q);
  e.state = state;
  e.reason = reason;
  const JobFailed failed{q.id, reason};
  reply(q.client, failed);
  tell_deputy(q.deputy, e, failed);
  keep_end(std::move(e), failed);
}

void JobCoordinator::retry_queue() {
  if (queue_.empty()) return;
  const std::uint32_t deputy = current_deputy();
  for (std::size_t i = 0; i < queue_.size();) {
    QueuedJob& q = queue_[i];
    JobPlan plan = plan_job(q.spec, q.app);
    if (!plan.error.empty()) {  // e.g. the configuration changed under it: it never will
      QueuedJob gone = std::move(q);
      queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(i));
      spdlog::warn("job {:#x} failed in the queue: {}", gone.id, plan.error);
      end_queued(gone, JobState::kFailed, plan.error);
      continue;
    }
    if (!plan.wait.empty()) {
      const bool changed = plan.wait != q.reason;
      if (changed) {
        q.reason = plan.wait;
        reply(q.client, JobNotice{q.id, JobNoticeKind::kQueued, 0, 0, 0, 0, "queued: " + q.reason});
      }
      // A new reason, or the ring changed (a node joined or died): the deputy hears of it.
      if (changed || q.deputy != deputy) send_queued_record(q, deputy);
      ++i;
      continue;
    }
    QueuedJob ready = std::move(q);
    queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(i));
    // The running job's record goes to the deputy of now, which drops its queued record; one
    // chosen before drops it at this order.
    if (ready.deputy != 0 && ready.deputy != deputy) {
      messenger_.send_to_node(ready.deputy, DeputyOrder{ready.id, false});
    }
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
  end_queued(*q, JobState::kCancelled, reason);
  if (client != q->client) reply(client, JobFailed{id, reason});
  std::erase_if(queue_, [&](const QueuedJob& j) { return j.id == id; });
  return true;
}

}  // namespace drift
