// TaskHost's side towards the daemon: jobs, tasks, deliveries, moves, rollbacks. The frames its
// workers send are taken in task_host_worker.cc.
#include "node/tasks/task_host.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "migration/location_cache.h"
#include "protocol/worker_codec.h"

namespace drift {

namespace {

// Payloads at least this large are written from their own buffer instead of being copied.
constexpr std::size_t kZeroCopyBytes = 64u << 10;

std::string job_label(std::uint64_t job) {
  char text[32];
  std::snprintf(text, sizeof text, "job %#llx", static_cast<unsigned long long>(job));
  return text;
}

}  // namespace

TaskHost::TaskHost(asio::io_context& io, const Containment& containment, Params params,
                   Hooks hooks)
    : io_(io),
      containment_(containment),
      params_(std::move(params)),
      hooks_(std::move(hooks)),
      alive_(std::make_shared<bool>(true)) {
  if (containment_.job_uids) job_uids_.emplace(*containment_.job_uids, params_.node);
}

TaskHost::~TaskHost() {
  *alive_ = false;
  end_all();
}

void TaskHost::end_all() {
  std::vector<std::uint64_t> ids = jobs();
  for (std::uint64_t job : ids) {
    if (HostedJob* hosted = find_job(job)) {
      fail_pending(*hosted, "the daemon is stopping");
      if (hosted->worker) hosted->worker->kill();
    }
  }
  for (auto& [ptr, worker] : stopping_) worker->kill();
  stopping_.clear();
  stopping_uids_.clear();
  jobs_.clear();
}

TaskHost::HostedJob& TaskHost::job_entry(std::shared_ptr<const JobInfo> info) {
  HostedJob& hosted = jobs_[info->id];
  if (!hosted.info) hosted.info = std::move(info);
  return hosted;
}

// Finds the job's executable for this node, then starts its worker; frames meanwhile wait. From
// a handler of its own: a worker that cannot start ends the job here, never within a send().
void TaskHost::launch(std::uint64_t job) {
  HostedJob* hosted = find_job(job);
  if (!hosted || hosted->worker || hosted->launching) return;
  hosted->launching = true;
  const std::uint32_t generation = hosted->info->generation;
  asio::post(io_, [this, job, generation, alive = alive_] {
    if (!*alive) return;
    HostedJob* h = find_job(job);
    if (!h || h->info->generation != generation || !h->launching) return;
    hooks_.executable(*h->info, [this, job, generation, alive](Result<std::string> path) {
      if (*alive) on_executable(job, generation, std::move(path));
    });
  });
}

void TaskHost::on_executable(std::uint64_t job, std::uint32_t generation,
                             Result<std::string> path) {
  HostedJob* hosted = find_job(job);
  if (!hosted || hosted->info->generation != generation || !hosted->launching) return;
  hosted->launching = false;
  const std::string label = job_label(job);
  if (!path) {
    spdlog::warn("{}: no worker: {}", label, path.error());
    return lose(job, "no worker could start: " + path.error());
  }
  if (job_uids_ && !hosted->uid) {
    auto lease = job_uids_->acquire(job);
    if (!lease) {
      spdlog::warn("{}: no worker: {}", label, lease.error());
      return lose(job, "no worker could start: " + lease.error());
    }
    hosted->uid = std::move(*lease);
  }
  LaunchSpec spec;
  spec.executable = *path;
  if (hosted->uid) spec.job_uid = hosted->uid.uid();
  spec.launcher = params_.launcher;
  // Unique among the live daemons of this machine (a dead one's leftover of the same pid is
  // removed by MemoryCgroups::make).
  spec.cgroup_name = "drift-" + std::to_string(params_.node) + "-" + std::to_string(::getpid()) +
                     "-w" + std::to_string(++launches_);
  auto worker = WorkerProcess::start(io_, spec, containment_, params_.max_frame + 4096, label,
                                     WorkerProcess::Events{}, params_.ready_within);
  if (!worker) {
    spdlog::warn("{}: its worker did not start: {}", label, worker.error());
    return lose(job, "its worker did not start: " + worker.error());
  }
  hosted->worker = *worker;
  hosted->worker_up = false;
  const WorkerProcess* id = hosted->worker.get();
  // Set after start: they must know which worker it was, and the job may have a newer one.
  hosted->worker->on_message([this, job, id, alive = alive_](WorkerMessage&& msg) {
    if (*alive) on_worker_message(job, id, std::move(msg));
  });
  hosted->worker->on_gone([this, job, id, alive = alive_](const WorkerProcess::Ending& ending) {
    if (*alive) on_worker_gone(job, id, ending);
  });
  spdlog::debug("{}: worker starting from {}{}", label, *path,
                hosted->uid ? " as uid " + std::to_string(hosted->uid.uid()) : "");
  WorkerSetup setup;
  setup.job = job;
  setup.root = hosted->info->root;
  setup.generation = hosted->info->generation;
  setup.node = params_.node;
  setup.spec = hosted->info->spec;
  setup.threads = params_.threads;
  setup.inline_us = params_.inline_us;
  setup.max_payload = params_.max_frame > 4096 ? params_.max_frame - 4096 : params_.max_frame;
  setup.piece_bytes = params_.piece_bytes;
  if (const Emulator* e = params_.emulator; e && e->enabled()) {
    setup.emulate_speed = e->settings().speed;
    setup.emulate_unit_rate = e->settings().unit_rate;
    for (const LoadRamp& r : e->settings().load) {
      setup.emulate_load.push_back({r.start_s, r.ramp_s, r.level});
    }
    setup.emulate_elapsed_s = e->seconds_since_start(Emulator::Clock::now());
  }
  hosted->worker->send(setup);
  if (paused_) hosted->worker->send(WorkerPause{true});
  std::vector<std::pair<Frame, bool>> unsent = std::move(hosted->unsent);
  hosted->unsent.clear();
  std::shared_ptr<WorkerProcess> w = hosted->worker;  // it may end under the sends below
  for (auto& [frame, bulk] : unsent) w->send(std::move(frame), bulk);
}

// To the job's worker, started if need be. Nothing here ends the worker synchronously (its end
// is reported from a handler of its own), so `hosted` stays valid across this call.
void TaskHost::send(HostedJob& hosted, Frame frame, bool bulk) {
  if (hosted.worker) {
    if (hosted.worker->queued_bytes() > params_.max_unread) {
      return hosted.worker->refuse("it stopped reading: " +
                                   std::to_string(hosted.worker->queued_bytes()) +
                                   " bytes wait for it");
    }
    return hosted.worker->send(std::move(frame), bulk);
  }
  hosted.unsent.emplace_back(std::move(frame), bulk);
  launch(hosted.info->id);
}

void TaskHost::send(HostedJob& hosted, const WorkerMessage& msg) {
  send(hosted, make_frame(encode_worker(msg)));
}

void TaskHost::send_message(HostedJob& hosted, TaskMessage&& msg) {
  if (msg.payload.size() < kZeroCopyBytes) return send(hosted, make_frame(encode_worker(msg)));
  auto payload = std::make_shared<const std::vector<std::uint8_t>>(std::move(msg.payload));
  msg.payload.clear();
  Frame frame = make_frame(encode_worker_prefix(msg, payload->size()));
  frame.tail = std::span<const std::uint8_t>(*payload);
  frame.tail_owner = std::move(payload);
  send(hosted, std::move(frame));
}

// In pieces of at most piece_bytes, each a frame whose tail points into the state (no copy).
void TaskHost::send_state(HostedJob& hosted, std::uint32_t index,
                          std::shared_ptr<const void> owner, std::span<const std::uint8_t> bytes) {
  const WorkerStateBytes head{StateBytesKind::kInstall, index, 0, 0, {}};
  for (std::size_t at = 0; at < bytes.size();) {
    const std::size_t n = std::min<std::size_t>(params_.piece_bytes, bytes.size() - at);
    Frame frame = make_frame(encode_worker_prefix(head, n));
    frame.tail = bytes.subspan(at, n);
    frame.tail_owner = owner;
    send(hosted, std::move(frame), true);
    at += n;
  }
}

void TaskHost::create(const CreateTasks& req, Done done) {
  if (HostedJob* existing = find_job(req.job); existing && !existing->tasks.empty()) {
    // The same request again (a frame sent twice): the first one answers.
    const bool same = existing->info->root == req.root &&
                      std::all_of(req.indices.begin(), req.indices.end(), [&](std::uint32_t i) {
                        return existing->tasks.contains(i);
                      });
    if (same) return spdlog::debug("job {}: CreateTasks again, ignored", req.job);
    return done(Status::error("job " + std::to_string(req.job) + " exists here"));
  }
  for (std::uint32_t index : req.indices) {
    if (index >= req.spec.tasks) {
      return done(Status::error("task index " + std::to_string(index) + " outside the job's " +
                                std::to_string(req.spec.tasks) + " tasks"));
    }
  }
  auto info = std::make_shared<JobInfo>();
  info->id = req.job;
  info->root = req.root;
  info->spec = req.spec;
  HostedJob& hosted = job_entry(info);
  for (std::uint32_t index : req.indices) hosted.tasks[index];
  hosted.creating.emplace_back(req.indices, std::move(done));
  send(hosted, WorkerCreate{req.indices});
}

void TaskHost::start(std::uint64_t job) {
  HostedJob* hosted = find_job(job);
  if (!hosted || hosted->start_sent) return;
  hosted->start_sent = true;
  for (auto& [index, t] : hosted->tasks) t.running = true;
  send(*hosted, WorkerStart{});
}

bool TaskHost::deliver(TaskMessage&& msg, std::uint32_t from_node) {
  HostedJob* hosted = find_job(msg.to.job);
  if (!hosted) return false;
  auto task = hosted->tasks.find(msg.to.index);
  if (task == hosted->tasks.end()) return false;
  if (msg.generation != hosted->info->generation) {
    spdlog::debug("dropped a message for task {}:{} of generation {} (the task's is {})",
                  msg.to.job, msg.to.index, msg.generation, hosted->info->generation);
    return true;
  }
  if (task->second.frozen || paused_) {
    task->second.held.push_back(HeldMessage{std::move(msg), from_node});
    return true;
  }
  send_message(*hosted, std::move(msg));
  return true;
}

void TaskHost::end(std::uint64_t job) { drop(job, false); }

void TaskHost::drop(std::uint64_t job, bool kill) {
  auto it = jobs_.find(job);
  if (it == jobs_.end()) return;
  fail_pending(it->second, "the job ended here");
  const WorkerProcess* worker = it->second.worker.get();
  stop_worker(it->second, kill);
  if (worker && it->second.uid) stopping_uids_[worker] = std::move(it->second.uid);
  jobs_.erase(it);
}

void TaskHost::stop_worker(HostedJob& hosted, bool kill) {
  if (!hosted.worker) return;
  std::shared_ptr<WorkerProcess> worker = std::move(hosted.worker);
  const WorkerProcess* id = worker.get();
  stopping_[id] = worker;
  worker->on_message([](WorkerMessage&&) {});  // the job it ran is over here
  worker->on_gone([this, id, alive = alive_](const WorkerProcess::Ending& ending) {
    if (!*alive) return;
    if (!ending.expected) spdlog::debug("a stopped worker {}", ending.how);
    stopping_.erase(id);
    stopping_uids_.erase(id);
  });
  if (kill) {
    worker->kill();
  } else {
    worker->stop(params_.stop_grace);
  }
}

Status TaskHost::freeze(TaskId task) {
  HostedJob* hosted = find_job(task.job);
  HostedTask* t = find(task);
  if (!t) return Status::error("task does not live here");
  if (!t->running) return Status::error("the job is not running here yet");
  if (t->frozen) return Status::error("task is already migrating");
  if (t->finished) return Status::error("task has finished");
  t->frozen = true;
  // Still loading after its last move: the worker hears of it once loaded (on_committed_load).
  if (!t->loading) send(*hosted, WorkerTaskControl{task.index, TaskControlAction::kFreeze});
  return Status::ok();
}

void TaskHost::capture(TaskId task, CaptureSink sink) {
  HostedJob* hosted = find_job(task.job);
  HostedTask* t = find(task);
  if (!t || !t->frozen) return sink.done(Status::error("task is not frozen here"));
  Capture& c = hosted->captures[task.index];
  if (c.sink.done) c.sink.done(Status::error("a newer capture of the task began"));
  c = Capture{++hosted->attempts, std::move(sink), 0};
  if (!t->loading) send(*hosted, WorkerCapture{task.index, c.attempt, c.sink.piece_bytes});
}

std::vector<HeldMessage> TaskHost::release(TaskId task) {
  HostedJob* hosted = find_job(task.job);
  HostedTask* t = find(task);
  if (!t) return {};
  std::vector<HeldMessage> held = std::move(t->held);
  hosted->tasks.erase(task.index);
  hosted->captures.erase(task.index);
  hosted->drop_checkpoint(task.index);
  send(*hosted, WorkerTaskControl{task.index, TaskControlAction::kRelease});
  return held;
}

void TaskHost::resume(TaskId task) {
  HostedJob* hosted = find_job(task.job);
  HostedTask* t = find(task);
  if (!t || !t->frozen) return;
  t->frozen = false;
  hosted->captures.erase(task.index);  // an abandoned capture's pieces are not wanted
  if (!t->loading) send(*hosted, WorkerTaskControl{task.index, TaskControlAction::kResume});
  if (paused_) return;  // unpause() delivers what it holds
  std::vector<HeldMessage> held = std::move(t->held);
  t->held.clear();
  for (auto& h : held) send_message(*hosted, std::move(h.msg));
}

void TaskHost::pause() {
  if (paused_) return;
  paused_ = true;
  for (std::uint64_t job : jobs()) {
    if (HostedJob* hosted = find_job(job)) send(*hosted, WorkerPause{true});
  }
}

void TaskHost::unpause() {
  if (!paused_) return;
  paused_ = false;
  for (std::uint64_t job : jobs()) {
    HostedJob* hosted = find_job(job);
    if (!hosted) continue;
    send(*hosted, WorkerPause{false});
    for (auto& [index, t] : hosted->tasks) {
      if (t.frozen) continue;
      std::vector<HeldMessage> held = std::move(t.held);
      t.held.clear();
      for (auto& h : held) send_message(*hosted, std::move(h.msg));
    }
  }
}

void TaskHost::begin_install(std::shared_ptr<const JobInfo> job, TaskId task, std::uint64_t epoch,
                             std::uint64_t total, InstallDone done, bool committed) {
  HostedJob& hosted = job_entry(std::move(job));
  Installing& in = hosted.installing[task.index];
  in.epoch = epoch;
  in.done = std::move(done);
  in.committed = committed;
  if (committed) {
    HostedTask& t = hosted.tasks[task.index];
    t.epoch = epoch;
    t.running = true;  // it moved in running; the worker starts it once loaded
    t.loading = true;
  }
  send(hosted, WorkerInstall{task.index, total, true});
}

bool TaskHost::worker_up(std::uint64_t job) const {
  auto it = jobs_.find(job);
  return it != jobs_.end() && it->second.worker && it->second.worker_up;
}

void TaskHost::install(std::shared_ptr<const JobInfo> job, TaskId task, std::uint64_t epoch,
                       std::shared_ptr<const StatePieces> state, InstallDone done,
                       bool committed) {
  if (find(task)) return done(Status::error("task already lives here"));
  if (HostedJob* h = find_job(task.job); h && h->installing.count(task.index)) {
    return done(Status::error("task is already arriving here"));
  }
  std::uint64_t total = 0;
  for (const auto& span : state->spans()) total += span.size();
  begin_install(job, task, epoch, total, std::move(done), committed);
  HostedJob& hosted = *find_job(task.job);
  for (const auto& span : state->spans()) send_state(hosted, task.index, state, span);
}

void TaskHost::install_streaming(std::shared_ptr<const JobInfo> job, TaskId task,
                                 std::uint64_t epoch, std::shared_ptr<StateStream> state,
                                 InstallDone done) {
  if (find(task)) return done(Status::error("task already lives here"));
  if (HostedJob* h = find_job(task.job); h && h->installing.count(task.index)) {
    return done(Status::error("task is already arriving here"));
  }
  begin_install(job, task, epoch, state->total(), std::move(done));
  HostedJob& hosted = *find_job(task.job);
  Installing& in = hosted.installing[task.index];
  in.stream = state;
  const std::uint64_t id = task.job;
  const std::uint32_t generation = hosted.info->generation;
  // The chunks are read as they arrive, on a thread of its own (the reads wait for the network),
  // and each is handed to the worker on the network thread.
  in.pump = std::thread([this, state, id, generation, index = task.index, alive = alive_] {
    try {
      std::size_t left = state->total();
      while (left > 0) {
        const std::span<const std::uint8_t> piece = state->next();
        auto copy = std::make_shared<const std::vector<std::uint8_t>>(piece.begin(), piece.end());
        left -= piece.size();
        asio::post(io_, [this, copy, id, generation, index, alive] {
          if (!*alive) return;
          HostedJob* h = find_job(id);
          if (!h || h->info->generation != generation || !h->installing.count(index)) return;
          send_state(*h, index, copy, *copy);
        });
      }
    } catch (const std::exception& e) {
      const std::string why = e.what();
      asio::post(io_, [this, id, generation, index, why, alive] {
        if (!*alive) return;
        HostedJob* h = find_job(id);
        if (!h || h->info->generation != generation) return;
        auto it = h->installing.find(index);
        if (it == h->installing.end()) return;
        InstallDone d = std::move(it->second.done);
        if (it->second.pump.joinable()) it->second.pump.join();  // it posted this and ended
        h->installing.erase(it);
        // The worker drops what it has of the task; its other tasks go on.
        send(*h, WorkerTaskControl{index, TaskControlAction::kRelease});
        if (d) d(Status::error(why));
      });
    }
  });
}

Status TaskHost::rollback(std::shared_ptr<const JobInfo> info,
                          const std::vector<std::pair<std::uint32_t, SavedState>>& tasks) {
  for (const auto& [index, state] : tasks) {
    if (index >= info->spec.tasks) {
      return Status::error("task index " + std::to_string(index) + " outside the job's " +
                           std::to_string(info->spec.tasks) + " tasks");
    }
  }
  drop(info->id, /*kill=*/true);  // a hung handler there must not go on
  if (tasks.empty()) return Status::ok();
  HostedJob& hosted = job_entry(info);
  std::vector<std::uint32_t> fresh;
  for (const auto& [index, state] : tasks) {
    HostedTask& t = hosted.tasks[index];
    t.epoch = generation_epoch(info->generation);
    if (!state) {
      fresh.push_back(index);
      continue;
    }
    hosted.installing[index].epoch = t.epoch;
    send(hosted, WorkerInstall{index, state->size(), false});
    send_state(hosted, index, state, *state);
  }
  if (!fresh.empty()) {
    hosted.creating.emplace_back(fresh, nullptr);
    send(hosted, WorkerCreate{fresh});
  }
  return Status::ok();
}

std::uint32_t TaskHost::generation(std::uint64_t job) const {
  auto it = jobs_.find(job);
  return it == jobs_.end() ? 0 : it->second.info->generation;
}

const TaskHost::HostedTask* TaskHost::find(TaskId id) const {
  auto it = jobs_.find(id.job);
  if (it == jobs_.end()) return nullptr;
  auto t = it->second.tasks.find(id.index);
  return t == it->second.tasks.end() ? nullptr : &t->second;
}

TaskHost::HostedTask* TaskHost::find(TaskId id) {
  return const_cast<HostedTask*>(static_cast<const TaskHost*>(this)->find(id));
}

TaskHost::HostedJob* TaskHost::find_job(std::uint64_t job) {
  auto it = jobs_.find(job);
  return it == jobs_.end() ? nullptr : &it->second;
}

bool TaskHost::frozen(TaskId task) const {
  const HostedTask* t = find(task);
  return t && t->frozen;
}

bool TaskHost::loading(TaskId task) const {
  const HostedTask* t = find(task);
  return t && t->loading;
}

std::vector<std::uint64_t> TaskHost::jobs() const {
  std::vector<std::uint64_t> ids;
  for (const auto& [id, job] : jobs_) ids.push_back(id);
  return ids;
}

std::shared_ptr<const JobInfo> TaskHost::job_info(std::uint64_t job) const {
  auto it = jobs_.find(job);
  return it == jobs_.end() ? nullptr : it->second.info;
}

std::uint32_t TaskHost::task_count() const {
  std::uint32_t n = 0;
  for (const auto& [id, job] : jobs_) n += static_cast<std::uint32_t>(job.tasks.size());
  return n;
}

double TaskHost::total_load() const {
  double sum = 0;
  for (const auto& [id, job] : jobs_) {
    for (const auto& [index, t] : job.tasks) sum += t.load;
  }
  return sum;
}

TaskGrain TaskHost::grain(TaskId task) const {
  const HostedTask* t = find(task);
  return t ? t->grain : TaskGrain{};
}

double TaskHost::task_load(TaskId task) const {
  const HostedTask* t = find(task);
  return t ? t->load : 0;
}

std::uint64_t TaskHost::epoch(TaskId task) const {
  const HostedTask* t = find(task);
  return t ? t->epoch : 0;
}

std::vector<TaskId> TaskHost::tasks() const {
  std::vector<TaskId> ids;
  for (const auto& [job, hosted] : jobs_) {
    for (const auto& [index, t] : hosted.tasks) ids.push_back(TaskId{job, index});
  }
  return ids;
}

std::size_t TaskHost::worker_count() const {
  std::size_t n = stopping_.size();
  for (const auto& [id, job] : jobs_) n += job.worker ? 1 : 0;
  return n;
}

std::vector<int> TaskHost::worker_pids() const {
  std::vector<int> pids;
  for (const auto& [id, job] : jobs_) {
    if (job.worker && job.worker->pid() > 0) pids.push_back(job.worker->pid());
  }
  for (const auto& [ptr, worker] : stopping_) {
    if (worker->pid() > 0) pids.push_back(worker->pid());  // not one still starting
  }
  return pids;
}

JobRoots TaskHost::jobs_sending_state(std::chrono::steady_clock::time_point since) const {
  JobRoots out;
  for (const auto& [id, job] : jobs_) {
    const bool coming = !job.checkpoint_bytes.empty() || !job.captures.empty();
    if (coming && job.state_went_on >= since && job.state_went_on.time_since_epoch().count() != 0) {
      out[id] = {job.info->root, job.info->generation};
    }
  }
  return out;
}

}  // namespace drift
