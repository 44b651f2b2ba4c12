// The root's side of checkpoints and rollback recovery (docs/architecture.md §9), part of JobCoordinator:
// when a step boundary is due for a checkpoint, which acknowledgements commit it, and the
// rollback itself — every task goes back to the committed checkpoint (or to the start if there is
// none) on the live nodes, and the job resumes once every node is ready. What sets a rollback off
// is in job_coordinator_losses.cc.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>

#include "node/jobs/job_coordinator.h"
#include "node/jobs/placement.h"
#include "node/workers/job_binaries.h"

namespace drift {

namespace {

using Clock = std::chrono::steady_clock;

Result<std::uint64_t> runtime_number(const JobSpec& spec, const std::string& key,
                                     std::uint64_t fallback, const std::string& meaning) {
  auto it = spec.runtime.find(key);
  if (it == spec.runtime.end()) return fallback;
  try {
    std::size_t used = 0;
    const unsigned long long v = std::stoull(it->second, &used);
    if (used == it->second.size() && it->second.find('-') == std::string::npos) return v;
  } catch (const std::exception&) {
  }
  return Status::error(key + " = '" + it->second + "': expected " + meaning);
}

}  // namespace

Result<CheckpointPolicy> JobCoordinator::checkpoint_policy(const JobSpec& spec) const {
  CheckpointPolicy p = checkpoint_policy_;
  auto steps = runtime_number(spec, "checkpoint_steps", p.every_steps,
                              "a number of steps between checkpoints (0 = not by steps)");
  if (!steps) return steps.status();
  auto ms = runtime_number(spec, "checkpoint_ms", static_cast<std::uint64_t>(p.interval.count()),
                           "milliseconds between checkpoints (0 = not by time)");
  if (!ms) return ms.status();
  p.every_steps = *steps;
  p.interval = std::chrono::milliseconds(*ms);
  return p;
}

std::set<std::uint32_t> JobCoordinator::everyone(const Job& job) const {
  std::set<std::uint32_t> nodes = job.nodes;
  for (const auto& c : candidates_()) nodes.insert(c.node_id);
  return nodes;
}

bool JobCoordinator::checkpoint_due(Job& job, std::uint64_t step,
                                    const std::vector<double>& values) {
  const auto now = Clock::now();
  if (job.recovering || !job.checkpoints->due(step, job.spec.steps, now)) return false;
  job.checkpoints->begin(step, values, now);
  return true;
}

void JobCoordinator::on_checkpoint_ack(const CheckpointAck& ack) {
  Job* job = find(ack.task.job);
  if (!job || ack.generation != job->generation || job->recovering) return;
  const bool committed = job->checkpoints->acknowledge(
      ack.task.index, ack.step, JobCheckpoints::Copies{ack.primary, ack.buddy}, Clock::now());
  if (!committed) return;
  ++totals_.checkpoints;
  spdlog::info("job {:#x}: checkpoint at step {} committed ({} tasks, two copies each)", job->id,
               ack.step + 1, job->spec.tasks);
  for (std::uint32_t node : everyone(*job)) {
    messenger_.send_to_node(node, CheckpointCommit{job->id, ack.step});
  }
  send_record(*job);
}

// Every task goes back to the committed checkpoint (or the start) on the live nodes, in a new
// generation; nothing runs until every live node has rolled back.
void JobCoordinator::recover(Job& job, std::uint32_t failed, const std::string& cause,
                             bool failed_is_back, std::uint32_t at) {
  std::set<std::uint32_t> live;
  std::vector<std::pair<std::uint32_t, double>> capacities;
  for (const auto& c : candidates_()) {
    if ((c.node_id == failed && !failed_is_back) || !c.available || !runs_on(job.spec, c.arch)) {
      continue;
    }
    live.insert(c.node_id);
    capacities.emplace_back(c.node_id, c.capacity);
  }
  Recovery r;
  r.failed_node = failed;
  r.at_node = at != 0 ? at : failed;
  r.cause = cause;
  if (job.recovering && job.recovering->copies_deadline && job.recovering->cause != cause) {
    // Still waiting for copies lost with an earlier failure: it is part of what happened.
    r.failed_node = job.recovering->failed_node;
    r.at_node = job.recovering->at_node;
    r.cause = job.recovering->cause + "; " + cause;
  }
  r.declared = job.recovering ? job.recovering->declared : Clock::now();
  job.progress = Clock::now();
  std::vector<std::uint32_t> placement;
  if (job.checkpoints->committed()) {
    auto restored = job.checkpoints->restore_placement(
        [&](std::uint32_t n) { return live.count(n) > 0; });
    if (!restored) {
      if (checkpoint_policy_.disk) return await_copies(job, std::move(r), restored.error());
      return fail(job.id, cause + " and the job cannot roll back: " + restored.error());
    }
    placement = std::move(restored).value();
    r.from_start = false;
    r.step = job.checkpoints->committed()->step;
  } else {
    placement = place_job(job.spec.tasks, job.spare, capacities);
    if (placement.size() != job.spec.tasks) {
      return fail(job.id, cause + " and no live node is left to restart the job on");
    }
  }
  ++job.generation;
  r.waiting = live;
  spdlog::warn("job {:#x}: {}; rolling back to {} in generation {} on {} nodes", job.id, cause,
               r.from_start ? std::string("the start") : "step " + std::to_string(r.step + 1),
               job.generation, live.size());
  job.recovering = r;
  send_record(job);  // before any node hears of the new generation
  job.steps.clear();
  job.next_step = r.from_start ? 0 : r.step + 1;
  job.combining = false;  // an answer to the combine under way is of the old generation
  std::fill(job.results.begin(), job.results.end(), std::nullopt);
  job.finished = 0;
  job.epochs.clear();
  job.checkpoints->rolled_back();
  job.nodes = live;
  std::map<std::uint32_t, std::vector<std::uint32_t>> by_node;
  for (std::uint32_t i = 0; i < placement.size(); ++i) by_node[placement[i]].push_back(i);
  for (std::uint32_t node : live) {
    JobRollback rb{job.id,  job.generation, messenger_.self_id(), r.from_start,
                   r.step,  job.spec,       placement,            by_node[node]};
    messenger_.send_to_node(node, std::move(rb));
  }
}

// The job stays as it is (its surviving tasks wait for the lost ones' messages) until a node
// that held the missing copies restarts and offers them from its disk, or the wait runs out.
void JobCoordinator::await_copies(Job& job, Recovery r, const std::string& missing) {
  const bool first = !(job.recovering && job.recovering->copies_deadline);
  r.copies_deadline = first ? Clock::now() + checkpoint_policy_.disk_wait
                            : *job.recovering->copies_deadline;
  r.missing = missing;
  job.recovering = r;
  if (!first) return;
  const double wait_s = std::chrono::duration<double>(checkpoint_policy_.disk_wait).count();
  char text[512];
  std::snprintf(text, sizeof text,
                "%s; %s: waiting up to %g s for one of them to restart with its copies on disk",
                r.cause.c_str(), missing.c_str(), wait_s);
  spdlog::warn("job {:#x}: {}", job.id, text);
  if (job.client && !job.client->closed()) {
    reply(job.client, JobNotice{job.id, JobNoticeKind::kWaiting, r.at_node, 0, 0, 0, text});
  }
}

void JobCoordinator::on_checkpoint_offer(const CheckpointOffer& offer) {
  Job* job = find(offer.job);
  if (!job) return;  // not rooted here; the node deletes copies nobody claims
  const auto& committed = job->checkpoints->committed();
  if (!committed) return;
  const std::size_t regained = job->checkpoints->regain_copies(offer.node, offer.step, offer.tasks);
  // Tells the node which step is still needed (older copies go) and that the job lives.
  messenger_.send_to_node(offer.node, CheckpointCommit{job->id, committed->step});
  if (regained == 0) return;
  spdlog::info("job {:#x}: node {} restarted with {} of the checkpoint copies at step {} that "
               "were lost with it, on disk",
               job->id, offer.node, regained, committed->step + 1);
  if (job->recovering && job->recovering->copies_deadline) {
    const Recovery r = *job->recovering;
    recover(*job, r.failed_node, r.cause, /*failed_is_back=*/true, r.at_node);
  } else {
    send_record(*job);
  }
}

void JobCoordinator::sweep_awaiting(Job& job, Clock::time_point now) {
  const Recovery r = *job.recovering;
  if (now < *r.copies_deadline) {
    // e.g. a copy holder is alive again
    return recover(job, r.failed_node, r.cause, /*failed_is_back=*/true, r.at_node);
  }
  const double wait_s = std::chrono::duration<double>(checkpoint_policy_.disk_wait).count();
  char why[64];
  std::snprintf(why, sizeof why, "no node restarted with them within %g s", wait_s);
  fail(job.id, r.cause + " and the job cannot roll back: " + r.missing + ", and " + why);
}

void JobCoordinator::on_rollback_ready(const RollbackReady& ready) {
  Job* job = find(ready.job);
  if (!job || !job->recovering || ready.generation != job->generation) return;
  if (!ready.ok) {
    if (!job->checkpoints->holds_copy(ready.node)) {
      return fail(job->id, "node " + std::to_string(ready.node) + " could not roll back: " +
                               ready.error);
    }
    // Its copies are gone (it fenced itself, unseen by us): roll back again from the other
    // copies; once both copies of a task are lost, recover() fails the job, naming it.
    job->checkpoints->lose_copies(ready.node);
    return recover(*job, 0, "node " + std::to_string(ready.node) + " could not roll back (" +
                                ready.error + ")");
  }
  job->recovering->waiting.erase(ready.node);
  if (job->recovering->waiting.empty()) resume(*job);
}

void JobCoordinator::resume(Job& job) {
  const Recovery r = *job.recovering;
  job.recovering.reset();
  job.started = true;
  for (std::uint32_t node : job.nodes) messenger_.send_to_node(node, JobResume{job.id, job.generation});
  const std::uint64_t kept = r.from_start ? 0 : r.step + 1;  // steps the checkpoint holds
  const std::uint64_t redo = job.steps_done > kept ? job.steps_done - kept : 0;
  // The committed step's reduction goes again with its splits and merges (job_grain.h).
  job.grain->rollback(r.from_start ? std::nullopt : std::optional<std::uint64_t>(r.step));
  if (!r.from_start) {
    send_reduction(job, r.step, job.checkpoints->committed()->values, false,
                   job.grain->at(r.step));
  }
  const auto now = Clock::now();
  if (job.step_s.size() > kept) job.step_s.resize(kept);
  job.step_began = now;
  job.progress = now;
  ++job.recoveries;
  job.steps_recomputed += redo;
  if (job.rollbacks.size() < kViewMoves) job.rollbacks.push_back(kept);
  ++totals_.recoveries;
  totals_.steps_recomputed += redo;
  const double seconds = std::chrono::duration<double>(now - r.declared).count();
  JobNotice notice = recovered_notice(job, r, redo, seconds);
  spdlog::warn("job {:#x}: {}", job.id, notice.text);
  if (job.client && !job.client->closed()) {
    reply(job.client, notice);
  } else {
    // The client lost the old root: it hears this once it attaches here.
    job.unsent = UnsentRecovery{r, redo, seconds};
  }
  send_record(job);
}

JobNotice JobCoordinator::recovered_notice(const Job& job, const Recovery& r, std::uint64_t redo,
                                           double seconds) const {
  const std::uint64_t kept = r.from_start ? 0 : r.step + 1;
  std::string text = r.cause + "; rolled back to " +
                     (r.from_start ? std::string("the start") : "step " + std::to_string(kept)) +
                     " and running again after " + std::to_string(seconds).substr(0, 5) + " s; " +
                     std::to_string(redo) + " step(s) to do again";
  return JobNotice{job.id, JobNoticeKind::kRecovered, r.at_node, kept, redo, seconds, text};
}

void JobCoordinator::sweep(Clock::time_point now) {
  const auto limit = checkpoint_policy_.stall;
  std::set<std::uint32_t> held;  // live nodes whose owner holds them (suspended, draining)
  for (const auto& c : candidates_()) {
    if (!c.available) held.insert(c.node_id);
  }
  std::vector<std::pair<std::uint64_t, double>> stalled, unmade;
  std::vector<std::uint64_t> awaiting;
  for (auto& [id, job] : jobs_) {
    if (job.recovering && job.recovering->copies_deadline) {
      awaiting.push_back(id);
      continue;
    }
    if (limit.count() <= 0) continue;  // never
    if (job.combining) {  // every task finished: the application combines (or waits its turn)
      job.progress = now;
      continue;
    }
    if (!job.started && !job.recovering) {
      // Being created: the nodes make their tasks (starting workers, fetching executables).
      const double waited = std::chrono::duration<double>(now - job.begin).count();
      if (waited > std::chrono::duration<double>(limit).count()) unmade.emplace_back(id, waited);
      continue;
    }
    if (std::any_of(job.nodes.begin(), job.nodes.end(),
                    [&](std::uint32_t n) { return held.count(n) > 0; })) {
      job.progress = now;  // a deliberate pause is not a stall
      continue;
    }
    const double longest = job.step_s.empty()
                               ? 0.0
                               : *std::max_element(job.step_s.begin(), job.step_s.end());
    const double patience =
        std::max(std::chrono::duration<double>(limit).count(), 5 * longest);
    const double idle = std::chrono::duration<double>(now - job.progress).count();
    if (idle > patience) stalled.emplace_back(id, idle);
  }
  for (std::uint64_t id : awaiting) {
    if (Job* job = find(id); job && job->recovering && job->recovering->copies_deadline) {
      sweep_awaiting(*job, now);
    }
  }
  for (const auto& [id, waited] : unmade) {
    Job* job = find(id);
    if (!job) continue;
    std::string missing;
    for (std::uint32_t n : job->nodes) {
      if (!job->created.count(n)) missing += (missing.empty() ? "" : ", ") + std::to_string(n);
    }
    char text[96];
    std::snprintf(text, sizeof text, "%.1f s", waited);
    fail(id, "node(s) " + missing + " did not make their tasks within " + text +
                 " (checkpoint.stall_ms): their workers did not start or answer");
  }
  for (const auto& [id, idle] : stalled) {
    Job* job = find(id);
    if (!job) continue;
    char cause[96];
    std::snprintf(cause, sizeof cause, "the job made no progress for %.1f s (a lost message?)",
                  idle);
    // Every step done, and tasks that never finished: a lost result is redone by a rollback,
    // but a task that does not call finish does so again, and the job would roll back for ever.
    if (job->next_step >= job->spec.steps && job->finished < job->spec.tasks) {
      std::string unfinished;
      std::size_t named = 0, count = 0;
      for (std::size_t t = 0; t < job->results.size(); ++t) {
        if (job->results[t]) continue;
        ++count;
        if (named++ < 10) unfinished += (unfinished.empty() ? "" : ", ") + std::to_string(t);
      }
      if (count > named) unfinished += ", ...";
      const std::string which = (count == 1 ? "task " : std::to_string(count) + " tasks (") +
                                unfinished + (count == 1 ? "" : ")");
      // Three times: frames lost twice at the end (test.drop_frames) are no task's fault.
      if (++job->stalls_after_last_step >= 3) {
        fail(id, which + " did not finish after the job's last step (" +
                     std::to_string(job->spec.steps) + "), three times with rollbacks between: "
                     "a task calls ctx.finish(result) once it has taken its last step");
        continue;
      }
      std::snprintf(cause, sizeof cause, "no task finished for %.1f s after the last step", idle);
      recover(*job, 0, cause + std::string(" (") + which + " did not)");
      continue;
    }
    recover(*job, 0, cause);
  }
  retry_queue();
}

}  // namespace drift
