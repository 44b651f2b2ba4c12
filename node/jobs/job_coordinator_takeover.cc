// The deputy's side of a job (docs/architecture.md §9), part of JobCoordinator: the root sends its deputy
// — its buddy, half way round the ring of live nodes — a JobRecord at the start, at every
// committed checkpoint and around every recovery; when the ring changes and another node becomes
// the deputy, the old one is told to drop its record (DeputyOrder), so only one node can take
// the job over. When the root dies — or fences itself after some node declared it dead, and
// hands its jobs over — the deputy becomes the job's root: it rebuilds the job from the record
// and rolls it back like any other failure, with itself as the root. The client, whose
// connection died with the root, finds it with JobAttach.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

#include "node/jobs/job_coordinator.h"

namespace drift {

namespace {
using Clock = std::chrono::steady_clock;
}

bool JobCoordinator::hand_record_to(std::uint64_t job, std::uint32_t& held, std::uint32_t to) {
  if (held != 0 && held != to) messenger_.send_to_node(held, DeputyOrder{job, false});
  held = to;
  return to != 0;
}

void JobCoordinator::send_record(Job& job) {
  const std::uint32_t deputy = current_deputy();
  if (!hand_record_to(job.id, job.deputy, deputy)) return;
  JobRecord r;
  r.job = job.id;
  r.root = messenger_.self_id();
  r.spec = job.spec;
  r.generation = job.generation;
  if (const auto& c = job.checkpoints->committed()) {
    r.committed = true;
    r.step = c->step;
    r.values = c->values;
    for (const auto& copies : c->copies) {
      r.primaries.push_back(copies.primary);
      r.buddies.push_back(copies.buddy);
    }
  }
  r.steps_done = job.steps_done;
  r.recoveries = job.recoveries;
  r.steps_recomputed = job.steps_recomputed;
  r.migrations = job.migrations;
  r.elapsed_s = std::chrono::duration<double>(Clock::now() - job.begin).count();
  r.step_s = job.step_s;
  if (r.committed) r.grain = job.grain->history(r.step);
  for (ReduceOp op : job.reduce_ops) r.reduce_ops.push_back(static_cast<std::uint8_t>(op));
  r.spare_tasks = job.spare;
  messenger_.send_to_node(deputy, std::move(r));
}

void JobCoordinator::on_record(const JobRecord& record) {
  if (jobs_.count(record.job) || find_queued(record.job)) return;  // we are its root now
  queued_records_.erase(record.job);  // it left its root's queue
  auto it = records_.find(record.job);
  if (it != records_.end() && it->second.generation > record.generation) return;
  records_[record.job] = record;
}

void JobCoordinator::on_deputy_order(const DeputyOrder& order, std::uint32_t from) {
  if (auto q = queued_records_.find(order.job);
      q != queued_records_.end() && q->second.root == from) {
    const QueuedJobRecord record = q->second;
    queued_records_.erase(q);
    if (!order.take_over) return;
    take_over_queued(record, "its root, node " + std::to_string(from) + ", " +
                                 (order.leaving ? "left the cluster"
                                                : "was declared dead and fenced itself") +
                                 " and handed the job over");
    messenger_.send_to_node(from, NodeLeftAck{order.job});
    return;
  }
  auto it = records_.find(order.job);
  if (it == records_.end() || it->second.root != from) return;
  if (!order.take_over) {
    records_.erase(it);
    return;
  }
  const JobRecord record = it->second;
  take_over(record, "its root, node " + std::to_string(from) + ", " +
                        (order.leaving ? "left the cluster" : "was declared dead and fenced itself") +
                        " and handed the job over");
  // A root that leaves waits for this before it stops (a fenced one ignores it).
  messenger_.send_to_node(from, NodeLeftAck{order.job});
}

void JobCoordinator::take_over(const JobRecord& record, const std::string& why) {
  records_.erase(record.job);
  auto policy = checkpoint_policy(record.spec);
  const bool ops_valid = !record.reduce_ops.empty() &&
                         std::all_of(record.reduce_ops.begin(), record.reduce_ops.end(),
                                     [](std::uint8_t op) { return op <= kReduceOpWireMax; });
  if (!ops_valid || !policy || record.spec.tasks == 0 || record.spare_tasks >= record.spec.tasks) {
    spdlog::warn("job {:#x}: {} and this deputy cannot run it", record.job, why);
    return;
  }
  spdlog::warn("job {:#x}: {}; this node, its deputy, takes it over", record.job, why);
  Job job;
  job.id = record.job;
  job.spec = record.spec;
  for (std::uint8_t op : record.reduce_ops) job.reduce_ops.push_back(static_cast<ReduceOp>(op));
  job.spare = record.spare_tasks;
  job.begin = Clock::now() - std::chrono::duration_cast<Clock::duration>(
                                 std::chrono::duration<double>(record.elapsed_s));
  job.results.resize(record.spec.tasks);
  job.checkpoints.emplace(record.spec.tasks, *policy, Clock::now());
  if (record.committed && record.primaries.size() == record.spec.tasks &&
      record.buddies.size() == record.spec.tasks) {
    JobCheckpoints::Committed c;
    c.step = record.step;
    c.values = record.values;
    for (std::uint32_t t = 0; t < record.spec.tasks; ++t) {
      c.copies.push_back({record.primaries[t], record.buddies[t]});
    }
    job.checkpoints->adopt(std::move(c));
  }
  job.generation = record.generation;
  job.steps_done = record.steps_done;
  job.recoveries = record.recoveries;
  job.steps_recomputed = record.steps_recomputed;
  job.migrations = record.migrations;
  job.step_s = record.step_s;
  job.next_step = record.committed ? record.step + 1 : 0;
  job.grain.emplace(record.spec.tasks, job.spare);
  if (record.committed) job.grain->adopt(record.grain);
  job.started = true;
  const std::uint64_t id = job.id;
  jobs_.emplace(id, std::move(job));
  recover(jobs_.at(id), record.root, why);
}

void JobCoordinator::on_attach(const ConnectionPtr& client, const JobAttach& attach) {
  if (attach_queued(client, attach.job)) return;
  Job* job = find(attach.job);
  if (!job) {
    if (const auto* kept = archive_.find(attach.job)) {  // it ended here: its end, at once
      if (auto refused = refuse_unless_owner(client->principal(), kept->entry.owner, "JobAttach",
                                             "attach to")) {
        return reply(client, *refused);
      }
      return std::visit([&](const auto& end) { reply(client, end); }, kept->end);
    }
    const std::uint32_t root = locations_.home(attach.job);
    return reply(client, JobNotice{attach.job, JobNoticeKind::kNotHere,
                                   root == messenger_.self_id() ? 0 : root, 0, 0, 0,
                                   "node " + std::to_string(messenger_.self_id()) +
                                       " is not the job's root"});
  }
  const Principal& who = client->principal();
  if (auto refused = refuse_unless_owner(who, owner_of(job->spec), "JobAttach", "attach to")) {
    spdlog::info("job {:#x}: refused {}'s attach: {}", job->id, who.name, refused->message);
    return reply(client, *refused);
  }
  job->client = client;
  spdlog::info("job {:#x}: {} attached", job->id, who.name);
  // The record this node took the job over with may be older than what the client saw (which
  // is at most the job's steps: more would be the client's invention).
  const std::uint64_t steps_seen = std::min(attach.steps_seen, job->spec.steps);
  job->steps_done = std::max(job->steps_done, steps_seen);
  if (job->unsent) {
    const Recovery& r = job->unsent->recovery;
    const std::uint64_t kept = r.from_start ? 0 : r.step + 1;
    const std::uint64_t seen = steps_seen > kept ? steps_seen - kept : 0;
    if (seen > job->unsent->redo) {
      job->steps_recomputed += seen - job->unsent->redo;
      job->unsent->redo = seen;
    }
  }
  reply(client, JobNotice{job->id, JobNoticeKind::kRootChanged, messenger_.self_id(),
                          job->steps_done, 0, 0,
                          "node " + std::to_string(messenger_.self_id()) +
                              " is the job's root now"});
  if (job->unsent) {
    reply(client, recovered_notice(*job, job->unsent->recovery, job->unsent->redo,
                                   job->unsent->seconds));
    job->unsent.reset();
  }
}

std::vector<std::pair<std::uint32_t, std::uint64_t>> JobCoordinator::abandon_all(
    const std::string& why) {
  std::vector<std::pair<std::uint32_t, std::uint64_t>> handovers;
  for (auto& [id, job] : jobs_) {
    send_record(job);  // what the deputy takes the job over with: as fresh as it can be
    if (job.deputy != 0) handovers.emplace_back(job.deputy, id);
    reply(job.client, JobNotice{id, JobNoticeKind::kNotHere, job.deputy, 0, 0, 0,
                                "node " + std::to_string(messenger_.self_id()) + " " + why +
                                    "; the job goes on under its deputy"});
    locations_.drop_job(id);
  }
  const std::uint32_t deputy = current_deputy();
  for (QueuedJob& q : queue_) {
    send_queued_record(q, deputy);
    if (q.deputy != 0) handovers.emplace_back(q.deputy, q.id);
    reply(q.client, JobNotice{q.id, JobNoticeKind::kNotHere, q.deputy, 0, 0, 0,
                              "node " + std::to_string(messenger_.self_id()) + " " + why +
                                  "; the job waits in its deputy's queue"});
  }
  jobs_.clear();
  queue_.clear();
  records_.clear();
  queued_records_.clear();
  return handovers;
}

}  // namespace drift
