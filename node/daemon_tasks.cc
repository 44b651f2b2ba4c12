// The daemon's task and job handlers (part of Daemon): tasks created, reductions and location
// updates routed, jobs ended or reset, moves asked and reported, a handler's effects and a lost
// worker passed on, and each job's executable found and asked the root's questions
// (docs/architecture.md §3, §11).
#include <spdlog/spdlog.h>

#include <algorithm>
#include <string>
#include <utility>

#include "node/daemon.h"
#include "node/daemon_params.h"
#include "node/workers/app_locator.h"
#include "node/workers/app_query_client.h"
#include "node/workers/job_binaries.h"
#include "node/workers/machine_arch.h"

namespace drift {

using namespace daemon_setup;

void Daemon::on_create(const CreateTasks& req) {
  locations_.set_job(req.job, req.placement);
  host_.create(req, [this, job = req.job, root = req.root](Status st) {
    send_to_node(root, TasksCreated{job, config_.node_id, st.is_ok(), st.message()});
  });
}

// The root's reduction for the tasks it believes live here; tasks that moved are routed on.
void Daemon::on_reduction(const ReductionResult& r, std::uint32_t from) {
  if (ended_jobs_.contains(r.job)) return;
  if (host_.knows_job(r.job) && host_.generation(r.job) != r.generation) return;
  for (const GrainChange& c : r.changes) {  // its copying is no step's overhead (step_overhead.h)
    if (std::find_if(r.tasks.begin(), r.tasks.end(), [&](std::uint32_t t) {
          return t == c.task || t == c.partner;
        }) != r.tasks.end()) {
      ++grain_changes_here_;
    }
  }
  auto values = std::make_shared<const std::vector<std::uint8_t>>(
      encode_portable(ReducedPayload{r.values, r.changes}));
  for (std::uint32_t index : r.tasks) {
    router_.route(
        reduction_message(TaskId{r.job, index}, r.step, values, r.generation, r.checkpoint), from);
  }
}

void Daemon::on_location_update(const LocationUpdate& u) {
  router_.on_location_update(u);
  if (locations_.home(u.task.job) == config_.node_id) {
    coordinator_.on_task_moved(u.task, u.node, u.epoch);
  }
}

void Daemon::on_job_end(std::uint64_t job) {
  reset_job(job);
  host_.end(job);
  recovery_.drop_job(job);
  coordinator_.forget_record(job);
  orphans_.erase(job);
  ended_jobs_.add(job);
}

void Daemon::reset_job(std::uint64_t job) {
  for (TaskId t : host_.tasks()) {
    if (t.job == job) meter_.forget(t);
  }
  partners_.forget_job(job);
  router_.drop_job(job);
  migration_.drop_job(job);
}

void Daemon::on_migrate_request(const ConnectionPtr& conn, const MigrateRequest& req) {
  std::uint64_t id = (std::uint64_t{config_.node_id} << 32) | ++next_request_;
  const std::uint32_t home = locations_.home(req.task.job);
  // A job whose root is no node (a job id nobody made) or a member known dead is answered at
  // once; sent there, the command was dropped and driftctl waited out its timeout. A node not
  // met yet is asked all the same (the command waits for it to join).
  if (home == 0 || (home != config_.node_id && table_.find(home) && !membership_.is_alive(home))) {
    const std::string reason = fmt::format(
        "job {:#x}: its root, node {}, is not a live member of this cluster (no such job?)",
        req.task.job, home);
    return conn->send(
        MigrationReport{id, req.task, false, reason, config_.node_id, req.dest, 0, 0});
  }
  migrate_requests_[id] = conn;
  send_to_node(home, MigrateCommand{id, config_.node_id, req.task, req.dest});
}

void Daemon::on_migration_report(const MigrationReport& report) {
  auto it = migrate_requests_.find(report.request);
  if (it == migrate_requests_.end()) return;
  if (it->second && !it->second->closed()) it->second->send(report);
  migrate_requests_.erase(it);
}

void Daemon::on_tasks_request(const ConnectionPtr& conn) {
  std::set<std::uint32_t> nodes;
  for (const Member& m : membership_.members()) {
    if (m.info.state != MemberState::kDead) nodes.insert(m.info.node_id);
  }
  std::uint64_t id = task_lists_.begin(conn, nodes);
  for (std::uint32_t node : nodes) send_to_node(node, TaskListRequest{id});
}

TaskListReply Daemon::task_list(std::uint64_t request) const {
  TaskListReply reply;
  reply.request = request;
  reply.node = config_.node_id;
  for (TaskId t : host_.tasks()) {
    reply.tasks.push_back(TaskInfo{t, config_.node_id, host_.epoch(t), host_.task_load(t), 0});
  }
  for (const auto& [task, pointer] : pointers_.all()) {
    reply.tasks.push_back(TaskInfo{task, 0, 0, 0, pointer.forwarded});
  }
  return reply;
}

void Daemon::on_effects(HandlerEffects&& effects) {
  // A task released by a migration may still deliver the effects of a handler that ran before.
  const std::uint32_t root = effects.job->root;
  if (host_.hosts(effects.task)) {
    meter_.on_effects(effects, now_s());
    active_jobs_[effects.task.job] = {root, effects.job->generation};  // for JobActivity
  } else {
    meter_.forget(effects.task);
  }
  for (TaskId partner : effects.partners) partners_.record(effects.task, partner);
  if (effects.checkpoint) {
    recovery_.on_saved(effects.task, effects.job->generation, *effects.checkpoint);
  }
  for (auto& c : effects.contributions) send_to_node(root, std::move(c));
  if (effects.finished) send_to_node(root, std::move(*effects.finished));
  if (effects.error) {
    send_to_node(root, JobFailed{effects.task.job, "task " + std::to_string(effects.task.index) +
                                                       " failed: " + *effects.error});
  }
}

void Daemon::on_sent(TaskMessage&& msg) {
  partners_.record(msg.from, msg.to);
  router_.route(std::move(msg), config_.node_id);
}

// The job's tasks here went with their worker: its root rolls the job back (or, the second time
// a worker of the job is lost, fails it with this reason).
void Daemon::on_worker_lost(const JobInfo& job, const std::vector<std::uint32_t>& tasks,
                            const std::string& why) {
  reset_job(job.id);
  constexpr std::size_t kMaxReason = 4096;
  send_to_node(job.root, WorkerLost{job.id, config_.node_id, job.generation, tasks,
                                    why.substr(0, kMaxReason)});
}

// A job of an installed application: this node runs its own, found on its apps path. A job of
// the user's own executable: the one for this node's architecture, cached or fetched (from the
// job's root first, which has them all).
void Daemon::find_executable(const JobInfo& job, TaskHost::ExecutableReady ready) {
  auto binaries = job_binaries(job.spec);
  if (!binaries) return ready(binaries.status());
  if (binaries->empty()) return ready(find_app(job.spec.app, apps_path_));
  auto mine = binaries->find(config_.arch());
  if (mine == binaries->end()) {
    std::string archs;
    for (const auto& [arch, sha] : *binaries) archs += (archs.empty() ? "" : ", ") + arch;
    return ready(Status::error("the job has no executable for this node's architecture, " +
                               config_.arch() + " (it has " + archs + ")"));
  }
  std::vector<std::uint32_t> sources;
  if (job.root != 0) sources.push_back(job.root);
  for (const Member& m : membership_.members()) {
    if (m.info.state == MemberState::kAlive && m.info.node_id != job.root) {
      sources.push_back(m.info.node_id);
    }
  }
  binaries_.need(mine->second, std::move(sources), std::move(ready));
}

// The executables the jobs here run, and all those of the jobs rooted here or whose deputy this
// is (the nodes fetch them from here; this node combines the results), spared when the cache is
// trimmed.
std::set<std::string> Daemon::executables_in_use() const {
  std::set<std::string> in_use;
  for (const JobSpec& spec : coordinator_.specs()) {
    if (auto binaries = job_binaries(spec)) {
      for (const auto& [arch, sha] : *binaries) in_use.insert(sha);
    }
  }
  for (std::uint64_t job : host_.jobs()) {
    auto info = host_.job_info(job);
    if (!info) continue;
    if (auto binaries = job_binaries(info->spec)) {
      if (auto it = binaries->find(config_.arch()); it != binaries->end()) {
        in_use.insert(it->second);
      }
    }
  }
  return in_use;
}

// The root's questions to the job's application, asked of this node's executable of it, each a
// process: as many at once as query_slots_ lets run (node/workers/app_query_slots.h).
void Daemon::ask_app(const AppQuery& query, std::function<void(Result<AppAnswer>)> answer) {
  const std::string owner = JobCoordinator::owner_of(query.spec);
  auto shared = std::make_shared<std::function<void(Result<AppAnswer>)>>(std::move(answer));
  auto refused = query_slots_.take(query.kind, owner, [this, query, owner, shared] {
    auto done = [this, kind = query.kind, owner, shared](Result<AppAnswer> a) {
      query_slots_.release(kind, owner);
      (*shared)(std::move(a));
    };
    JobInfo job;
    job.spec = query.spec;
    job.root = config_.node_id;
    find_executable(job, [this, query, done = std::move(done)](Result<std::string> path) mutable {
      if (!path) return done(path.status());
      drift::ask_app(io_, *path, config_.worker.launcher, containment_, query,
                     config_.worker.query_timeout, std::move(done),
                     "drift-" + std::to_string(config_.node_id) + "-" + std::to_string(::getpid()) +
                         "-q" + std::to_string(++queries_asked_));
    });
  });
  if (refused) {
    (*shared)(Status::error("node " + std::to_string(config_.node_id) + ": " + *refused));
  }
}

}  // namespace drift
