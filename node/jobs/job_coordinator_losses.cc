// What sets a job's recovery off, part of JobCoordinator (docs/architecture.md §9.3): a node of
// the job dies, a worker is lost, a node leaves with its tasks (fenced, or its owner's evacuation
// deadline passed) or without them (they moved away first), and a member drops the checkpoint
// copies it kept. Each either rolls the job back (recover) or makes the next step checkpoint
// again, so that every task has two copies once more.
#include <spdlog/spdlog.h>

#include "node/jobs/job_coordinator.h"

namespace drift {

void JobCoordinator::on_node_dead(std::uint32_t node_id, const std::string& name) {
  std::vector<std::uint64_t> hit, lost_deputy;
  for (auto& [id, job] : jobs_) {
    if (job.deputy == node_id) lost_deputy.push_back(id);
    const bool hosted = job.nodes.count(node_id) > 0;
    const bool waited = job.recovering && job.recovering->waiting.count(node_id) > 0;
    // It may rejoin, but empty: where some task has one copy left, or a pending checkpoint may
    // wait for its acknowledgements, the next step checkpoints again (a rollback does anyway).
    job.checkpoints->holder_gone(node_id);
    if (hosted || waited) hit.push_back(id);
  }
  for (std::uint64_t id : hit) {
    if (Job* job = find(id)) {
      recover(*job, node_id, "node " + std::to_string(node_id) + " (" + name + ") died");
    }
  }
  for (std::uint64_t id : lost_deputy) {
    if (Job* job = find(id); job && job->deputy == node_id) send_record(*job);  // a new deputy
  }
  std::vector<JobRecord> orphans;
  for (const auto& [id, record] : records_) {
    if (record.root == node_id) orphans.push_back(record);
  }
  for (const JobRecord& record : orphans) {
    take_over(record, "its root, node " + std::to_string(node_id) + " (" + name + "), died");
  }
  // The queue: a dead deputy's records are gone (the next retry sends them to the new one);
  // the queued jobs of a dead root wait here now.
  for (QueuedJob& q : queue_) {
    if (q.deputy == node_id) q.deputy = 0;
  }
  std::vector<QueuedJobRecord> queued_orphans;
  for (const auto& [id, record] : queued_records_) {
    if (record.root == node_id) queued_orphans.push_back(record);
  }
  for (const QueuedJobRecord& record : queued_orphans) {
    take_over_queued(record, "its root, node " + std::to_string(node_id) + " (" + name + "), died");
  }
}

void JobCoordinator::on_worker_lost(const WorkerLost& lost) {
  Job* job = find(lost.job);
  if (!job || lost.generation != job->generation) return;  // rolled back meanwhile
  if (job->recovering && job->recovering->waiting.count(lost.node) == 0 && lost.tasks.empty()) {
    return;
  }
  std::string tasks;
  for (std::uint32_t t : lost.tasks) tasks += (tasks.empty() ? "" : ", ") + std::to_string(t);
  const std::string cause = "on node " + std::to_string(lost.node) + ", " +
                            (lost.tasks.size() == 1 ? "task " : "tasks ") +
                            (tasks.empty() ? std::string("(none yet)") : tasks) + ": " +
                            lost.reason;
  if (++job->workers_lost >= 2) {
    return fail(job->id, "a worker of the job was lost a second time (it ended, or a task's "
                         "state did not load in it), so it ends: " + cause);
  }
  recover(*job, 0, cause, /*failed_is_back=*/false, lost.node);  // its node stays in the job
}

void JobCoordinator::on_node_leaving(const NodeLeaving& leaving) {
  Job* job = find(leaving.job);
  if (!job) return;
  if (!job->nodes.count(leaving.node)) {
    // None of its tasks (it never had any, or the job recovered without it), but the checkpoint
    // copies it kept went with it: a restore uses the other copies, and the job checkpoints
    // again at the next step, also in place of a pending checkpoint whose copies it was
    // receiving (their acknowledgements will never come).
    if (!job->checkpoints->holder_gone(leaving.node)) return;
    spdlog::info("job {:#x}: node {} dropped the checkpoint copies it kept ({}); checkpointing "
                 "again", job->id, leaving.node, leaving.reason);
    return;
  }
  if (job->recovering && job->recovering->failed_node == leaving.node) return;
  recover(*job, leaving.node, "node " + std::to_string(leaving.node) + " left: " + leaving.reason);
}

void JobCoordinator::on_node_left(const NodeLeft& left) {
  Job* job = find(left.job);
  if (!job || job->recovering) return;  // a recovery places the tasks on live nodes anyway
  job->nodes.erase(left.node);
  // Its copies of the committed checkpoint left with it: a restore would use the other copy, and
  // the next step checkpoints again, so that every task has two copies once more before the next
  // node leaves or fails (a rolling upgrade takes the members down one after another).
  const bool again = job->checkpoints->holder_gone(left.node);
  spdlog::info("job {:#x}: node {} left it cleanly (its tasks moved away first{})", job->id,
               left.node, again ? "; checkpointing again for the copies it held" : "");
}

}  // namespace drift
