// The root's side of jobs that outlive their client (part of JobCoordinator, docs/architecture.md
// §6.6): its jobs as entries for `driftctl jobs`, cancelling, and the archive of ended jobs.
#include <spdlog/spdlog.h>

#include "node/jobs/job_coordinator.h"

namespace drift {

namespace {

std::string runtime_value(const JobSpec& spec, const char* key) {
  const auto it = spec.runtime.find(key);
  return it == spec.runtime.end() ? std::string() : it->second;
}

}  // namespace

JobEntry JobCoordinator::entry_of(const Job& job, JobState state) const {
  JobEntry e;
  e.job = job.id;
  e.app = job.spec.app;
  e.name = runtime_value(job.spec, "name");
  if (e.name.empty()) e.name = job.spec.app;
  e.owner = owner_of(job.spec);
  e.state = state;
  e.step = job.steps_done;
  e.steps = job.spec.steps;
  e.tasks = job.spec.tasks;
  e.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - job.begin).count();
  e.nodes.assign(job.nodes.begin(), job.nodes.end());
  e.root = messenger_.self_id();
  return e;
}

void JobCoordinator::archive(const Job& job, JobState state, JobArchive::End end) {
  ++(state == JobState::kDone        ? totals_.done
      : state == JobState::kCancelled ? totals_.cancelled
                                      : totals_.failed);
  JobEntry e = entry_of(job, state);
  if (const auto* failed = std::get_if<JobFailed>(&end)) e.reason = failed->reason;
  if (state == JobState::kDone) e.step = job.spec.steps;
  tell_deputy(job.deputy, e, end);  // before the JobEnd that makes it drop the job's record
  keep_end(std::move(e), std::move(end));
}

void JobCoordinator::tell_deputy(std::uint32_t deputy, const JobEntry& entry,
                                 const JobArchive::End& end) {
  if (deputy == 0) return;
  JobEnded outcome;
  outcome.entry = entry;
  std::visit(
      [&](const auto& m) {
        using T = std::decay_t<decltype(m)>;
        outcome.done = std::is_same_v<T, JobResult>;
        if constexpr (std::is_same_v<T, JobResult>) outcome.result = m;
        if constexpr (std::is_same_v<T, JobFailed>) outcome.failure = m;
      },
      end);
  messenger_.send_to_node(deputy, std::move(outcome));
}

void JobCoordinator::keep_end(JobEntry entry, JobArchive::End end) {
  std::optional<JobEndDisk::Record> record;
  if (end_disk_) record = JobEndDisk::Record{entry, end, JobEndDisk::WallClock::now()};
  archive_.add(std::move(entry), std::move(end), std::chrono::steady_clock::now());
  if (record) end_disk_->save_later(std::move(*record));  // after add(), which drops an older copy
}

JobEndDisk::Loaded JobCoordinator::use_end_disk(JobEndDisk disk) {
  JobEndDisk::Loaded loaded = disk.load(JobArchive::kMaxKept);
  end_disk_.emplace(std::move(disk));
  archive_.set_on_drop([this](std::uint64_t job) { end_disk_->erase_later(job); });
  const auto now = std::chrono::steady_clock::now();
  const auto wall = JobEndDisk::WallClock::now();
  for (const JobEndDisk::Record& r : loaded.ends) {  // oldest first, as the archive keeps them
    const auto age = std::max(JobEndDisk::WallClock::duration::zero(), wall - r.ended);
    archive_.add(r.entry, r.end,
                 now - std::chrono::duration_cast<std::chrono::steady_clock::duration>(age));
  }
  archive_.entries(now);  // those past jobs.keep_results go now, from disk too
  return loaded;
}

void JobCoordinator::on_ended(const JobEnded& outcome) {
  const JobEntry& e = outcome.entry;
  if (jobs_.count(e.job) || !ended(e.state) || (outcome.done != (e.state == JobState::kDone))) {
    return;  // ours, or not an end
  }
  queued_records_.erase(e.job);  // it ended in its root's queue
  JobArchive::End end = outcome.done ? JobArchive::End(outcome.result)
                                     : JobArchive::End(outcome.failure);
  if (outcome.done ? outcome.result.job != e.job : outcome.failure.job != e.job) return;
  keep_end(e, std::move(end));
}

void JobCoordinator::on_forget(const ConnectionPtr& client, const JobForget& forget) {
  const auto* kept = archive_.find(forget.job);
  if (!kept) {
    if (find(forget.job) || find_queued(forget.job)) {
      return reply(client, JobFailed{forget.job, "the job has not ended: nothing to forget "
                                                 "(driftctl cancel ends it)"});
    }
    return reply(client, JobNotice{forget.job, JobNoticeKind::kNotHere, 0, 0, 0, 0,
                                   "node " + std::to_string(messenger_.self_id()) +
                                       " keeps no end of this job"});
  }
  const Principal& who = client->principal();
  if (auto refused = refuse_unless_owner(who, kept->entry.owner, "JobForget", "forget")) {
    return reply(client, *refused);
  }
  const std::uint32_t root = kept->entry.root;
  archive_.forget(forget.job);
  spdlog::info("job {:#x}: its end forgotten at {}'s request", forget.job, who.name);
  // The root tells every member (its deputy among them); a deputy asked after the root died
  // has only its own copy to drop.
  if (root == messenger_.self_id()) {
    for (const auto& c : candidates_()) {
      if (c.node_id != root) messenger_.send_to_node(c.node_id, JobForget{forget.job});
    }
  }
  reply(client, JobForget{forget.job});
}

void JobCoordinator::on_forget_from(std::uint32_t from, const JobForget& forget) {
  const auto* kept = archive_.find(forget.job);
  if (kept && kept->entry.root == from) archive_.forget(forget.job);
}

// A list must fit one frame whatever its jobs hold: a failure's reason (a worker's last lines of
// stderr) is cut to its start here, `driftctl result` shows it whole; and past list_bytes_ (which
// the bounds on a spec, job_spec_bounds.h, keep far off) the list ends, said in the log.
JobListReply JobCoordinator::list(const Principal& who, bool all) {
  constexpr std::size_t kReasonBytes = 512;
  JobListReply reply{messenger_.self_id(), {}};
  std::size_t bytes = 0, left_out = 0;
  const auto add = [&](JobEntry&& e) {
    if (!all && e.owner != who.name) return;
    if (e.reason.size() > kReasonBytes) {
      std::size_t cut = kReasonBytes;  // not inside a UTF-8 sequence (JSON refuses a broken one)
      while (cut > 0 && (static_cast<unsigned char>(e.reason[cut]) & 0xC0) == 0x80) --cut;
      e.reason = e.reason.substr(0, cut) + "... (driftctl result shows it all)";
    }
    const std::size_t size = 64 + e.app.size() + e.name.size() + e.owner.size() +
                             e.reason.size() + 4 * e.nodes.size();
    if (bytes + size > list_bytes_) {
      ++left_out;
      return;
    }
    bytes += size;
    reply.jobs.push_back(std::move(e));
  };
  for (JobEntry& e : archive_.entries(std::chrono::steady_clock::now())) add(std::move(e));
  for (const auto& [id, job] : jobs_) {
    add(entry_of(job, job.recovering ? JobState::kRecovering : JobState::kRunning));
  }
  for (const QueuedJob& q : queue_) add(entry_of(q));
  if (left_out > 0) {
    spdlog::warn("a list of jobs for {} left out {} job(s): over {} bytes", who.name, left_out,
                 list_bytes_);
  }
  return reply;
}

std::string JobCoordinator::owner_of(const JobSpec& spec) { return runtime_value(spec, "owner"); }

std::optional<Refused> JobCoordinator::refuse_unless_owner(const Principal& who,
                                                           const std::string& owner,
                                                           const char* request,
                                                           const char* action) {
  if (allows(who.role, Role::kAdmin) || owner == who.name) return std::nullopt;
  return Refused{request, static_cast<std::uint8_t>(Role::kAdmin),
                 "this job is " + owner + "'s: only its owner or an admin may " + action + " it"};
}

void JobCoordinator::on_cancel(const ConnectionPtr& client, const JobCancel& cancel) {
  const Principal& who = client->principal();
  if (cancel_queued(client, cancel.job)) return;
  Job* job = find(cancel.job);
  if (!job) {
    if (const auto* kept = archive_.find(cancel.job)) {
      return reply(client, JobFailed{cancel.job, "the job has ended already (" +
                                                     std::string(to_string(kept->entry.state)) +
                                                     "); nothing to cancel"});
    }
    const std::uint32_t root = locations_.home(cancel.job);
    return reply(client, JobNotice{cancel.job, JobNoticeKind::kNotHere,
                                   root == messenger_.self_id() ? 0 : root, 0, 0, 0,
                                   "node " + std::to_string(messenger_.self_id()) +
                                       " is not the job's root"});
  }
  if (auto refused = refuse_unless_owner(who, owner_of(job->spec), "JobCancel", "cancel")) {
    spdlog::info("job {:#x}: refused {}'s cancel: {}", cancel.job, who.name, refused->message);
    return reply(client, *refused);
  }
  const ConnectionPtr attached = job->client;
  fail(cancel.job, "cancelled by " + who.name, JobState::kCancelled);
  if (client != attached) reply(client, JobFailed{cancel.job, "cancelled by " + who.name});
}

}  // namespace drift
