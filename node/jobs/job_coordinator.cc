#include "node/jobs/job_coordinator.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <random>
#include <tuple>

#include "node/jobs/job_spec_bounds.h"
#include "node/jobs/placement.h"
#include "node/workers/job_binaries.h"

namespace drift {

namespace {

double combine(ReduceOp op, double a, double b) {
  switch (op) {
    case ReduceOp::kSum: return a + b;
    case ReduceOp::kMax: return std::max(a, b);
    case ReduceOp::kMin: return std::min(a, b);
  }
  return a;
}

}  // namespace

JobCoordinator::JobCoordinator(Messenger& messenger, LocationCache& locations,
                               CandidateSource candidates, AppOracle oracle,
                               CheckpointPolicy checkpoints, std::chrono::seconds keep_results)
    : messenger_(messenger),
      locations_(locations),
      candidates_(std::move(candidates)),
      oracle_(std::move(oracle)),
      checkpoint_policy_(checkpoints),
      archive_(keep_results) {}

std::uint64_t JobCoordinator::next_job_id() {
  // Unique across roots and restarts: node id, a random salt per process, a counter.
  static const std::uint64_t salt = std::random_device{}() & 0xffff;
  return (std::uint64_t{messenger_.self_id()} << 32) | (salt << 16) | (++counter_ & 0xffff);
}

void JobCoordinator::reply(const ConnectionPtr& client, WireMessage msg) {
  if (client && !client->closed()) client->send(msg);
}

void JobCoordinator::submit(RunRequest request, const ConnectionPtr& client, bool follow) {
  if (Status st = check_spec_bounds(request.spec); !st) {
    return reply(client, JobFailed{0, st.message()});
  }
  AppQuery query;
  query.kind = AppQueryKind::kValidate;
  query.spec = request.spec;
  oracle_(query, [this, spec = std::move(request.spec), client, follow](Result<AppAnswer> answer) {
    if (client && client->closed()) return;  // it left while the application was asked
    if (!answer) return reply(client, JobFailed{0, answer.error()});
    if (!answer->ok) return reply(client, JobFailed{0, spec.app + ": " + answer->error});
    if (answer->reduce_ops.empty() || answer->reduce_ops.size() > 1024) {
      return reply(client, JobFailed{0, spec.app + " names " +
                                            std::to_string(answer->reduce_ops.size()) +
                                            " reduced values (1..1024 may be)"});
    }
    // The application's own defaults, but drift's runtime options as the user gave them.
    JobSpec checked = answer->spec;
    checked.app = spec.app;
    checked.runtime = spec.runtime;
    if (Status st = check_spec_bounds(checked); !st) {
      return reply(client, JobFailed{0, spec.app + "'s defaults: " + st.message()});
    }
    start_job(std::move(checked), *answer, client, follow);
  });
}

void JobCoordinator::start_job(JobSpec spec, const AppAnswer& app, const ConnectionPtr& client,
                               bool follow) {
  JobPlan plan = plan_job(spec, app);
  if (!plan.error.empty()) return reply(client, JobFailed{0, plan.error});
  const std::uint64_t id = next_job_id();
  if (!plan.wait.empty()) return enqueue(id, std::move(spec), app, client, follow, plan.wait);
  launch(id, std::move(spec), app, std::move(plan), client, follow);
}

JobCoordinator::JobPlan JobCoordinator::plan_job(const JobSpec& spec, const AppAnswer& app) const {
  JobPlan plan;
  const auto refuse = [&](std::string why) {
    plan.error = std::move(why);
    return plan;
  };
  if (spec.tasks == 0) return refuse("the job has no tasks (--tasks N)");
  if (spec.tasks > kMaxTasks) {
    return refuse("tasks = " + std::to_string(spec.tasks) + ": a job has at most " +
                  std::to_string(kMaxTasks) + " tasks");
  }
  if (app.spare_tasks >= spec.tasks) {
    return refuse(spec.app + " says " + std::to_string(app.spare_tasks) + " of the " +
                  std::to_string(spec.tasks) + " tasks are spare: none would work");
  }
  for (auto [key, value, what] :
       {std::tuple{"chaos_migrations", &plan.chaos, "tasks to move"},
        std::tuple{"chaos_grain", &plan.chaos_grain, "splits or merges to ask for"}}) {
    auto it = spec.runtime.find(key);
    if (it == spec.runtime.end()) continue;
    try {
      std::size_t end = 0;
      const unsigned long n = std::stoul(it->second, &end);
      if (end != it->second.size() || n > 1000000) throw std::out_of_range(it->second);
      *value = static_cast<std::uint32_t>(n);
    } catch (const std::exception&) {
      return refuse(std::string(key) + " = '" + it->second + "': expected a number of " + what +
                    " per step");
    }
  }
  bool even = false;
  if (auto it = spec.runtime.find("placement"); it != spec.runtime.end()) {
    even = it->second == "even";  // the same share everywhere, whatever the capacity
    if (!even && it->second != "capacity") {
      return refuse("placement = '" + it->second + "': expected 'capacity' or 'even'");
    }
  }
  if (auto it = spec.runtime.find("memory");
      it != spec.runtime.end() && (!memory_per_task(spec) || *memory_per_task(spec) == 0)) {
    return refuse("memory = '" + it->second + "': expected the bytes one task needs, e.g. 512M "
                  "or 2G (K, M, G, T: powers of 1024)");
  }
  auto policy = checkpoint_policy(spec);
  if (!policy) return refuse(policy.error());
  plan.policy = *policy;
  // What it could run on now; a job that does not fit waits (job_queue.cc).
  std::vector<std::pair<std::uint32_t, double>> nodes;
  std::vector<std::uint64_t> free_memory;
  for (const auto& c : candidates_()) {
    if (!runs_on(spec, c.arch)) {
      // A member not heard from yet (joining, or dead) has no architecture known here.
      std::string& list = c.arch.empty() ? plan.unheard : plan.sat_out;
      list += (list.empty() ? "" : ", ") + std::string("node ") + std::to_string(c.node_id) +
              " (" + c.name + (c.arch.empty() ? "" : ", " + c.arch) + ")";
      continue;
    }
    if (!c.available) continue;
    nodes.emplace_back(c.node_id, even ? 1.0 : c.capacity);
    free_memory.push_back(c.free_memory);
  }
  plan.wait = admission(spec, app, free_memory);
  if (!plan.wait.empty()) return plan;
  plan.placement = place_job(spec.tasks, app.spare_tasks, nodes);
  if (plan.placement.size() != spec.tasks) {
    plan.wait = "no live, available node with capacity to place the tasks on" +
                (plan.sat_out.empty() ? std::string()
                                      : " (without an executable for their architecture: " +
                                            plan.sat_out + ")");
  }
  return plan;
}

void JobCoordinator::launch(std::uint64_t id, JobSpec spec, const AppAnswer& app, JobPlan plan,
                            const ConnectionPtr& client, bool follow) {
  Job job;
  job.id = id;
  job.chaos_migrations = plan.chaos;
  job.chaos_grain = plan.chaos_grain;
  job.grain.emplace(spec.tasks, app.spare_tasks);
  job.spec = spec;
  job.reduce_ops = app.reduce_ops;
  job.spare = app.spare_tasks;
  job.client = follow ? client : nullptr;
  job.begin = std::chrono::steady_clock::now();
  job.results.resize(spec.tasks);
  job.checkpoints.emplace(spec.tasks, plan.policy, job.begin);
  const std::vector<std::uint32_t>& placement = plan.placement;
  std::map<std::uint32_t, std::vector<std::uint32_t>> by_node;
  for (std::uint32_t i = 0; i < spec.tasks; ++i) by_node[placement[i]].push_back(i);
  for (const auto& [node, indices] : by_node) job.nodes.insert(node);
  spdlog::info("job {:#x}: {} with {} tasks on {} nodes", job.id, spec.app, spec.tasks,
               by_node.size());
  locations_.set_job(id, placement);
  jobs_.emplace(id, std::move(job));
  if (!follow) reply(client, JobAccepted{id, messenger_.self_id()});
  if (!plan.sat_out.empty() || !plan.unheard.empty()) {
    const auto many = [](const std::string& list) {
      return list.find("), node ") != std::string::npos;
    };
    std::string text;
    if (!plan.sat_out.empty()) {
      text = plan.sat_out + (many(plan.sat_out) ? " take" : " takes") +
             " no task of the job: it has no executable for " +
             (many(plan.sat_out) ? "their architectures" : "its architecture");
    }
    if (!plan.unheard.empty()) {
      text += (text.empty() ? "" : "; ") + plan.unheard +
              (many(plan.unheard) ? " take" : " takes") +
              " no task of the job: its architecture is not known here (nothing heard from it)";
    }
    spdlog::info("job {:#x}: {}", id, text);
    reply(follow ? client : nullptr, JobNotice{id, JobNoticeKind::kSatOut, 0, 0, 0, 0, text});
  }
  for (auto& [node, indices] : by_node) {
    CreateTasks create{id, messenger_.self_id(), spec, placement, std::move(indices)};
    messenger_.send_to_node(node, std::move(create));
  }
  send_record(jobs_.at(id));
}

void JobCoordinator::on_tasks_created(const TasksCreated& msg) {
  Job* job = find(msg.job);
  if (!job || job->recovering || job->generation > 0) return;  // a rollback starts them
  if (!msg.ok) return fail(msg.job, "node " + std::to_string(msg.node) + " could not create "
                                        "its tasks: " + msg.error);
  job->created.insert(msg.node);
  if (job->created.size() < job->nodes.size() || job->started) return;
  job->started = true;
  job->step_began = std::chrono::steady_clock::now();
  job->progress = job->step_began;
  for (std::uint32_t node : job->nodes) messenger_.send_to_node(node, StartJob{job->id});
}

// From any member: the destination of a move is often none of the job's first nodes, and it is
// the one taking in the state.
void JobCoordinator::on_activity(const JobActivity& msg, std::uint32_t) {
  Job* job = find(msg.job);
  if (!job || msg.generation != job->generation) return;
  job->progress = std::chrono::steady_clock::now();
}

void JobCoordinator::on_contribution(const ReductionContribution& msg) {
  Job* job = find(msg.job);
  if (!job || msg.task >= job->spec.tasks || msg.generation != job->generation) return;
  if (msg.step < job->next_step) return;  // a step completed already (a late duplicate)
  if (msg.step >= job->spec.steps || msg.step >= job->next_step + kStepWindow) {
    return fail(job->id, "task " + std::to_string(msg.task) + " contributed to step " +
                             std::to_string(msg.step) + " while step " +
                             std::to_string(job->next_step) + " of " +
                             std::to_string(job->spec.steps) + " is under way");
  }
  StepReduction& step = job->steps[msg.step];
  if (step.by_task.empty()) step.by_task.resize(job->spec.tasks);
  if (step.by_task[msg.task]) return;  // one contribution per task and step
  if (msg.values.size() != job->reduce_ops.size()) {
    return fail(job->id, "task " + std::to_string(msg.task) + " contributed " +
                             std::to_string(msg.values.size()) + " values, expected " +
                             std::to_string(job->reduce_ops.size()));
  }
  step.by_task[msg.task] = msg.values;
  // A task that contributes is progress, even while the step waits for the rest: a slow node
  // (a tenth of a core, its worker just started) can take longer than checkpoint.stall_ms over
  // a step that the others finished long ago, and that is no lost message.
  job->progress = std::chrono::steady_clock::now();
  if (++step.received == job->spec.tasks) complete_step(*job, msg.step);
}

// Combined in task-index order, so the result does not depend on placement or arrival order.
void JobCoordinator::complete_step(Job& job, std::uint64_t step) {
  const std::vector<ReduceOp>& ops = job.reduce_ops;
  StepReduction& r = job.steps[step];
  std::vector<double> values = *r.by_task[0];
  for (std::uint32_t t = 1; t < job.spec.tasks; ++t) {
    for (std::size_t k = 0; k < ops.size(); ++k) values[k] = combine(ops[k], values[k], (*r.by_task[t])[k]);
  }
  job.steps.erase(step);
  job.next_step = std::max(job.next_step, step + 1);
  auto now = std::chrono::steady_clock::now();
  job.step_s.push_back(std::chrono::duration<double>(now - job.step_began).count());
  job.step_began = now;
  job.progress = now;
  job.steps_done = std::max(job.steps_done, step + 1);
  // No change after the last step: every task finishes with it.
  std::vector<GrainChange> changes;
  if (step + 1 < job.spec.steps) {
    if (job.chaos_grain > 0) job.grain->stir(job.chaos_grain, [this] { return chaos_random(); });
    changes = job.grain->take(step, [&](std::uint32_t index) {
      auto loc = locations_.lookup(TaskId{job.id, index});
      return loc ? loc->node : 0u;
    });
    for (const GrainChange& c : changes) {
      spdlog::info("job {:#x}: after step {}, task {} {} task {}", job.id, step, c.task,
                   c.kind == GrainKind::kSplit ? "splits with" : "absorbs", c.partner);
    }
  }
  send_reduction(job, step, values, checkpoint_due(job, step, values), changes);
  reply(job.client, JobProgress{job.id, step + 1, job.spec.steps, values});
  if (job.chaos_migrations > 0 && step + 1 < job.spec.steps) stir(job);
}

void JobCoordinator::on_grain_request(const GrainRequest& request) {
  Job* job = find(request.job);
  if (!job || job->recovering) return;
  job->grain->request(request.change, request.dest);
}

// One message per node, naming the tasks the home believes live there; nodes route on.
void JobCoordinator::send_reduction(const Job& job, std::uint64_t step,
                                    const std::vector<double>& values, bool checkpoint,
                                    const std::vector<GrainChange>& changes) {
  std::map<std::uint32_t, std::vector<std::uint32_t>> by_node;
  for (const auto& [index, loc] : locations_.job(job.id)) by_node[loc.node].push_back(index);
  for (auto& [node, tasks] : by_node) {
    messenger_.send_to_node(node, ReductionResult{job.id, step, values, std::move(tasks),
                                                  job.generation, checkpoint, changes});
  }
}

// xorshift64: a testing aid's randomness, not a policy's.
std::uint64_t JobCoordinator::chaos_random() {
  chaos_seed_ ^= chaos_seed_ << 13;
  chaos_seed_ ^= chaos_seed_ >> 7;
  chaos_seed_ ^= chaos_seed_ << 17;
  return chaos_seed_;
}

// Moves random tasks to random other live nodes (xorshift; a testing aid, not a policy).
void JobCoordinator::stir(const Job& job) {
  auto candidates = candidates_();
  std::erase_if(candidates, [&](const PlacementCandidate& c) { return !runs_on(job.spec, c.arch); });
  if (candidates.size() < 2) return;
  auto next = [this] { return chaos_random(); };
  for (std::uint32_t k = 0; k < job.chaos_migrations; ++k) {
    TaskId task{job.id, static_cast<std::uint32_t>(next() % job.spec.tasks)};
    auto loc = locations_.lookup(task);
    std::uint32_t dest = candidates[next() % candidates.size()].node_id;
    if (loc && loc->node == dest) continue;
    messenger_.send_to_node(messenger_.self_id(), MigrateCommand{0, messenger_.self_id(), task, dest});
  }
}

// Several nodes may tell the home of the same move; the task's move count (epoch) says how many
// moves are new. Moves of a generation that was rolled back no longer count.
void JobCoordinator::on_task_moved(TaskId task, std::uint32_t node, std::uint64_t epoch) {
  Job* job = find(task.job);
  if (!job || generation_of_epoch(epoch) != job->generation) return;
  job->nodes.insert(node);
  std::uint64_t& known = job->epochs[task.index];
  known = std::max(known, generation_epoch(job->generation));
  if (epoch > known) {
    job->migrations += epoch - known;
    known = epoch;
    job->move_steps.push_back(job->next_step + 1);
    if (job->move_steps.size() > kViewMoves) {
      job->move_steps.erase(job->move_steps.begin(),
                            job->move_steps.begin() + (job->move_steps.size() - kViewMoves));
    }
  }
}

std::optional<JobCoordinator::JobView> JobCoordinator::view(std::uint64_t id) const {
  auto it = jobs_.find(id);
  if (it == jobs_.end()) return std::nullopt;
  const Job& job = it->second;
  JobView v;
  const std::size_t from = job.step_s.size() > kViewSteps ? job.step_s.size() - kViewSteps : 0;
  v.first_step = from + 1;
  v.step_s.assign(job.step_s.begin() + static_cast<std::ptrdiff_t>(from), job.step_s.end());
  v.rollbacks = job.rollbacks;
  v.moves = job.move_steps;
  for (const auto& [index, where] : locations_.job(id)) ++v.tasks_per_node[where.node];
  return v;
}

void JobCoordinator::on_task_finished(const TaskFinished& msg) {
  Job* job = find(msg.job);
  if (!job || msg.task >= job->spec.tasks || job->results[msg.task] ||
      msg.generation != job->generation) {
    return;
  }
  job->results[msg.task] = msg.result;
  job->progress = std::chrono::steady_clock::now();
  if (++job->finished == job->spec.tasks) complete_job(*job);
}

// The application combines the results (its executable here, a while): the job stays until it
// answers; a rollback meanwhile makes the answer moot (it is of an older generation).
void JobCoordinator::complete_job(Job& job) {
  if (job.recovering || job.combining) return;  // results of a generation being rolled back
  job.combining = true;
  AppQuery query;
  query.kind = AppQueryKind::kCombine;
  query.spec = job.spec;
  for (auto& r : job.results) query.results.push_back(*r);
  oracle_(query, [this, id = job.id, generation = job.generation](Result<AppAnswer> answer) {
    on_combined(id, generation, std::move(answer));
  });
}

void JobCoordinator::on_combined(std::uint64_t job_id, std::uint32_t generation,
                                 Result<AppAnswer> answer) {
  Job* found = find(job_id);
  if (!found || found->generation != generation || !found->combining) return;
  Job& job = *found;
  job.combining = false;
  if (!answer) return fail(job.id, "combining the results failed: " + answer.error());
  if (!answer->ok) return fail(job.id, "combining the results failed: " + answer->error);
  JobResult res;
  res.job = job.id;
  res.app = job.spec.app;
  res.checksum = answer->checksum;
  res.steps = job.spec.steps;
  res.tasks = job.spec.tasks;
  res.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - job.begin).count();
  res.details = answer->details;
  res.step_s = job.step_s;
  res.migrations = job.migrations;
  res.recoveries = job.recoveries;
  res.steps_recomputed = job.steps_recomputed;
  res.splits = job.grain->splits();
  res.merges = job.grain->merges();
  spdlog::info("job {:#x} done in {:.3f} s, {} migrations, {} recoveries: checksum {}", job.id,
               res.wall_s, res.migrations, res.recoveries, res.checksum);
  reply(job.client, res);
  archive(job, JobState::kDone, res);
  end_everywhere(job, false, "done");
  locations_.drop_job(job.id);
  jobs_.erase(job.id);
}

void JobCoordinator::on_task_failed(std::uint32_t from_node, const JobFailed& msg) {
  if (!find(msg.job)) return;
  fail(msg.job, "on node " + std::to_string(from_node) + ": " + msg.reason);
}

// The client left (Ctrl-C, a dropped connection, a laptop gone to sleep): the job goes on, and
// anyone allowed may attach to it again.
void JobCoordinator::on_client_closed(const ConnectionPtr& client) {
  for (auto& [id, job] : jobs_) {
    if (job.client != client) continue;
    job.client = nullptr;
    spdlog::info("job {:#x}: its client left; the job goes on (driftctl attach {:x})", id, id);
  }
  for (QueuedJob& q : queue_) {
    if (q.client == client) q.client = nullptr;  // it stays queued
  }
}

void JobCoordinator::fail(std::uint64_t job_id, const std::string& reason, JobState state) {
  Job* job = find(job_id);
  if (!job) return;
  if (state == JobState::kCancelled) {
    spdlog::info("job {:#x} {}", job_id, reason);
  } else {
    spdlog::warn("job {:#x} failed: {}", job_id, reason);
  }
  reply(job->client, JobFailed{job_id, reason});
  archive(*job, state, JobFailed{job_id, reason});
  end_everywhere(*job, true, reason);
  locations_.drop_job(job_id);
  jobs_.erase(job_id);
}

// Every live node hears of the end, not only the hosts we know of: a task may be arriving at a
// node the home has not heard about yet.
void JobCoordinator::end_everywhere(const Job& job, bool failed, const std::string& reason) {
  for (std::uint32_t node : everyone(job)) {
    messenger_.send_to_node(node, JobEnd{job.id, failed, reason});
  }
}

std::vector<JobSpec> JobCoordinator::specs() const {
  std::vector<JobSpec> out;
  for (const auto& [id, job] : jobs_) out.push_back(job.spec);
  for (const auto& [id, record] : records_) out.push_back(record.spec);
  for (const QueuedJob& q : queue_) out.push_back(q.spec);
  for (const auto& [id, record] : queued_records_) out.push_back(record.spec);
  return out;
}

JobCoordinator::Job* JobCoordinator::find(std::uint64_t id) {
  auto it = jobs_.find(id);
  return it == jobs_.end() ? nullptr : &it->second;
}


}  // namespace drift
