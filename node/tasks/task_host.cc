#include "node/tasks/app_registry.h"
#include "node/tasks/task_host.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <exception>

#include "migration/location_cache.h"
#include "migration/state_writer.h"
#include "node/tasks/hosted_task_state.h"
#include <drift/archives.h>

namespace drift {

namespace {

TaskGrain grain_of(const Task& task) { return TaskGrain{task.can_split(), task.merge_partner()}; }

}  // namespace

TaskMessage reduction_message(TaskId to, std::uint64_t step,
                              const std::shared_ptr<const std::vector<std::uint8_t>>& values,
                              std::uint32_t generation, bool checkpoint) {
  TaskMessage m;
  m.from = TaskId{to.job, kRootSender};
  m.to = to;
  m.seq = step + 1;
  m.tag = checkpoint ? kCheckpointTag : kReducedTag;
  m.generation = generation;
  m.payload = *values;
  return m;
}

TaskHost::TaskHost(asio::io_context& io, asio::thread_pool& pool, const AppRegistry& apps,
                   EffectsSink sink, std::uint32_t inline_us, const Emulator* emulator)
    : io_(io),
      pool_(pool),
      apps_(apps),
      sink_(std::move(sink)),
      inline_us_(inline_us),
      emulator_(emulator) {}

Status TaskHost::create(const CreateTasks& req) {
  if (jobs_.count(req.job)) return Status::error("job " + std::to_string(req.job) + " exists");
  const Application* app = apps_.find(req.spec.app);
  if (!app) return Status::error("unknown application '" + req.spec.app + "'");
  JobSpec spec = req.spec;
  if (auto st = app->validate(spec); !st) return st;
  auto info = std::make_shared<JobInfo>();
  info->id = req.job;
  info->root = req.root;
  info->spec = std::move(spec);
  info->app = app;
  HostedJob hosted;
  hosted.info = info;
  for (std::uint32_t index : req.indices) {
    if (index >= info->spec.tasks) {
      return Status::error("task index " + std::to_string(index) + " outside the job's " +
                           std::to_string(info->spec.tasks) + " tasks");
    }
    auto task = app->create_task(info->spec, index);
    if (!task) {
      return Status::error(req.spec.app + " made no task for index " + std::to_string(index));
    }
    TaskId id{req.job, index};
    loads_[id] = task->load();
    grains_[id] = grain_of(*task);
    hosted.tasks.emplace(index, std::make_shared<TaskSlot>(id, info, std::move(task), pool_));
  }
  jobs_.emplace(req.job, std::move(hosted));
  return Status::ok();
}

void TaskHost::start(std::uint64_t job) {
  auto it = jobs_.find(job);
  if (it == jobs_.end() || it->second.started) return;
  it->second.started = true;
  for (auto& [index, slot] : it->second.tasks) {
    run(slot, [](TaskSlot& s, TaskContext& ctx) { s.task->start(ctx); });
  }
}

bool TaskHost::deliver(TaskMessage&& msg, std::uint32_t from_node) {
  auto slot = find(msg.to);
  if (!slot) return false;
  if (msg.generation != slot->job->generation) {
    spdlog::debug("dropped a message for task {}:{} of generation {} (the task's is {})",
                  msg.to.job, msg.to.index, msg.generation, slot->job->generation);
    return true;
  }
  if (slot->frozen || paused_) {
    slot->held.push_back(HeldMessage{std::move(msg), from_node});
    return true;
  }
  post_delivery(slot, std::move(msg));
  return true;
}

void TaskHost::post_delivery(const std::shared_ptr<TaskSlot>& slot, TaskMessage&& msg) {
  auto shared = std::make_shared<TaskMessage>(std::move(msg));
  run(slot, [shared](TaskSlot& s, TaskContext& ctx) {
    // A checkpointed reduction: the state is saved before the task takes it, so after a rollback
    // the root's resent reduction is the next message on its channel. It is always the next one
    // (every task contributed to its step, so each took the previous reduction).
    if (shared->tag == kCheckpointTag && shared->from.index == kRootSender &&
        s.receiver.next_expected(shared->from) == shared->seq) {
      ctx.effects().checkpoint = CheckpointState{shared->seq - 1, save(s)};
    }
    for (auto& m : s.receiver.accept(std::move(*shared))) {
      if (s.finished) break;
      if (m.from.index == kRootSender) {
        ReducedPayload reduced;
        if (auto st = decode_portable(m.payload, reduced); !st) {
          throw std::runtime_error("bad reduction payload: " + st.message());
        }
        if (!reduced.changes.empty()) s.task->regrain(ctx, m.seq - 1, reduced.changes);
        s.task->reduced(ctx, m.seq - 1, reduced.values);
      } else {
        s.task->receive(ctx, Message{m.from, m.tag, std::move(m.payload)});
      }
    }
  });
}

void TaskHost::end(std::uint64_t job) {
  auto it = jobs_.find(job);
  if (it == jobs_.end()) return;
  for (auto& [index, slot] : it->second.tasks) {
    slot->stopped = true;
    loads_.erase(slot->id);
    grains_.erase(slot->id);
  }
  jobs_.erase(it);
}

Status TaskHost::freeze(TaskId task) {
  auto slot = find(task);
  if (!slot) return Status::error("task does not live here");
  if (!jobs_.at(task.job).started) return Status::error("the job is not running here yet");
  if (slot->frozen) return Status::error("task is already migrating");
  if (slot->finished) return Status::error("task has finished");
  slot->frozen = true;
  return Status::ok();
}

// Runs on the strand after every handler posted before it: the state is between two handlers.
void TaskHost::capture(TaskId task, CaptureSink sink) {
  auto slot = find(task);
  if (!slot || !slot->frozen) {
    sink.done(Status::error("task is not frozen here"));
    return;
  }
  auto shared = std::make_shared<CaptureSink>(std::move(sink));
  slot->queued.fetch_add(1, std::memory_order_relaxed);
  asio::post(slot->strand, [this, slot, shared] {
    Status status = write_state(*slot, shared);
    slot->queued.fetch_sub(1, std::memory_order_release);
    asio::post(io_, [shared, status = std::move(status)] { shared->done(status); });
  });
}

// The worker's part of capture(): counts the state, then writes it in pieces.
Status TaskHost::write_state(TaskSlot& slot, const std::shared_ptr<CaptureSink>& sink) {
  if (slot.finished || slot.stopped) return Status::error("task has finished");
  try {
    ByteCounter counter;
    {
      PortableOutputArchive ar(counter);
      save_hosted_task(ar, *slot.task, slot.receiver, slot.sender);
    }
    const std::uint64_t total = counter.count();
    asio::post(io_, [sink, total] { sink->sized(total); });
    auto emit = [this, sink](std::uint32_t index, BufferPool::Ptr piece) {
      asio::post(io_, [sink, index, piece = std::move(piece)]() mutable {
        sink->piece(index, std::move(piece));
      });
    };
    StateWriter writer(BufferPool::shared(), sink->piece_bytes, sink->piece_front, total, emit,
                       sink->cancel.get());
    {
      PortableOutputArchive ar(writer);
      save_hosted_task(ar, *slot.task, slot.receiver, slot.sender);
    }
    writer.finish();
    return Status::ok();
  } catch (const std::exception& e) {
    return Status::error(std::string("saving the task's state failed: ") + e.what());
  }
}

std::shared_ptr<const std::vector<std::uint8_t>> TaskHost::save(TaskSlot& slot) {
  PortableOutputArchive ar;
  save_hosted_task(ar, *slot.task, slot.receiver, slot.sender);
  return std::make_shared<const std::vector<std::uint8_t>>(std::move(ar).take_bytes());
}

Status TaskHost::rollback(std::shared_ptr<const JobInfo> info,
                          const std::vector<std::pair<std::uint32_t, SavedState>>& tasks) {
  HostedJob hosted;
  hosted.info = info;
  for (const auto& [index, state] : tasks) {
    const TaskId id{info->id, index};
    if (index >= info->spec.tasks) {
      return Status::error("task index " + std::to_string(index) + " outside the job's " +
                           std::to_string(info->spec.tasks) + " tasks");
    }
    Result<std::shared_ptr<TaskSlot>> slot = Status::error("");
    if (state) {
      slot = restore(info, id, std::span<const std::uint8_t>(*state));
    } else if (auto task = info->app->create_task(info->spec, index)) {
      slot = std::make_shared<TaskSlot>(id, info, std::move(task), pool_);
    } else {
      slot = Status::error(info->spec.app + " made no task for index " + std::to_string(index));
    }
    if (!slot) return Status::error("task " + std::to_string(index) + ": " + slot.error());
    hosted.tasks.emplace(index, std::move(slot).value());
  }
  end(info->id);
  for (const auto& [index, slot] : hosted.tasks) {
    slot->epoch = generation_epoch(info->generation);
    loads_[slot->id] = slot->task->load();
    grains_[slot->id] = grain_of(*slot->task);
  }
  jobs_.emplace(info->id, std::move(hosted));
  return Status::ok();
}

std::uint32_t TaskHost::generation(std::uint64_t job) const {
  auto it = jobs_.find(job);
  return it == jobs_.end() ? 0 : it->second.info->generation;
}

std::vector<HeldMessage> TaskHost::release(TaskId task) {
  auto slot = find(task);
  if (!slot) return {};
  slot->stopped = true;
  std::vector<HeldMessage> held = std::move(slot->held);
  jobs_[task.job].tasks.erase(task.index);
  loads_.erase(task);
  grains_.erase(task);
  return held;
}

void TaskHost::resume(TaskId task) {
  auto slot = find(task);
  if (!slot || !slot->frozen) return;
  slot->frozen = false;
  if (paused_) return;  // unpause() delivers what it holds
  std::vector<HeldMessage> held = std::move(slot->held);
  slot->held.clear();
  for (auto& h : held) post_delivery(slot, std::move(h.msg));
}

// Slots first: a delivery may run a handler inline, whose effects must not meet a map in use.
void TaskHost::unpause() {
  paused_ = false;
  std::vector<std::shared_ptr<TaskSlot>> slots;
  for (auto& [id, hosted] : jobs_) {
    for (auto& [index, slot] : hosted.tasks) slots.push_back(slot);
  }
  for (auto& slot : slots) {
    if (slot->frozen || slot->stopped) continue;
    std::vector<HeldMessage> held = std::move(slot->held);
    slot->held.clear();
    for (auto& h : held) post_delivery(slot, std::move(h.msg));
  }
}

void TaskHost::install(std::shared_ptr<const JobInfo> job, TaskId task, std::uint64_t epoch,
                       std::shared_ptr<const StatePieces> state, InstallDone done) {
  if (find(task)) return done(Status::error("task already lives here"));
  const std::uint64_t id = begin_install(job, task, epoch, std::move(done));
  asio::post(pool_, [this, id, job, task, state, loaded = installs_[id].loaded]() mutable {
    *loaded = restore(job, task, state->spans());
    state.reset();  // its chunks go back to the pool now
    asio::post(io_, [this, id] { on_loaded(id); });
  });
}

void TaskHost::install_streaming(std::shared_ptr<const JobInfo> job, TaskId task,
                                 std::uint64_t epoch, std::shared_ptr<StateStream> state,
                                 InstallDone done) {
  if (find(task)) return done(Status::error("task already lives here"));
  const std::uint64_t id = begin_install(job, task, epoch, std::move(done));
  PendingInstall& pending = installs_[id];
  pending.stream = state;
  pending.thread = std::thread([this, id, job, task, state, loaded = pending.loaded] {
    *loaded = restore(job, task, *state);
    asio::post(io_, [this, id] { on_loaded(id); });
  });
}

std::uint64_t TaskHost::begin_install(std::shared_ptr<const JobInfo> job, TaskId task,
                                      std::uint64_t epoch, InstallDone done) {
  const std::uint64_t id = ++installs_made_;
  PendingInstall& pending = installs_[id];
  pending.job = std::move(job);
  pending.task = task;
  pending.epoch = epoch;
  pending.done = std::move(done);
  pending.loaded = std::make_shared<Loaded>();
  return id;
}

TaskHost::~TaskHost() {
  for (auto& [id, pending] : installs_) {
    if (pending.stream) pending.stream->fail("the daemon is stopping");
  }
  for (auto& [id, pending] : installs_) {
    if (pending.thread.joinable()) pending.thread.join();
  }
}

// Network thread: a loaded task joins the node and starts (or the install failed).
void TaskHost::on_loaded(std::uint64_t id) {
  auto it = installs_.find(id);
  if (it == installs_.end()) return;
  PendingInstall pending = std::move(it->second);
  installs_.erase(it);
  if (pending.thread.joinable()) pending.thread.join();  // it ends right after posting this
  Result<std::shared_ptr<TaskSlot>> slot =
      std::move(*pending.loaded).value_or(Status::error("the task was not loaded"));
  const TaskId task = pending.task;
  if (!slot) return pending.done(slot.status());
  if (find(task)) return pending.done(Status::error("task already lives here"));
  if (generation(task.job) != pending.job->generation && knows_job(task.job)) {
    return pending.done(Status::error("the job rolled back while the task was on its way"));
  }
  std::shared_ptr<TaskSlot> s = std::move(slot).value();
  s->epoch = pending.epoch;
  HostedJob& hosted = jobs_[task.job];
  if (!hosted.info) hosted.info = pending.job;
  hosted.started = true;
  hosted.tasks[task.index] = s;
  loads_[task] = s->task->load();
  grains_[task] = grain_of(*s->task);
  run(s, [](TaskSlot& t, TaskContext& ctx) { t.task->start(ctx); });
  pending.done(Status::ok());
}

// A task object with its channels, loaded from its state's pieces; any thread.
template <class Input>
Result<std::shared_ptr<TaskSlot>> TaskHost::restore(const std::shared_ptr<const JobInfo>& job,
                                                    TaskId task, Input&& input) {
  auto made = job->app->create_task(job->spec, task.index);
  if (!made) {
    return Status::error(job->spec.app + " made no task for index " + std::to_string(task.index));
  }
  auto slot = std::make_shared<TaskSlot>(task, job, std::move(made), pool_);
  try {
    BoundedInputArchive ar(std::forward<Input>(input));
    load_hosted_task(ar, *slot->task, slot->receiver, slot->sender);
    if (ar.remaining() != 0) {
      return Status::error("the task's state has " + std::to_string(ar.remaining()) +
                           " trailing bytes");
    }
  } catch (const std::exception& e) {
    return Status::error(std::string("the task's state does not load: ") + e.what());
  }
  return slot;
}

// Runs handler on the task's strand; its effects return to the network thread in one batch. A
// task whose handlers are short and that has nothing queued runs it right here instead: only
// this thread posts to the strand, so with nothing queued no worker can be running the task.
void TaskHost::run(const std::shared_ptr<TaskSlot>& slot, Handler handler) {
  if (may_run_inline(*slot)) {
    in_inline_handler_ = true;  // also while its effects are routed: no nested inline handlers
    absorb(execute(*slot, handler, emulator_));
    in_inline_handler_ = false;
    return;
  }
  slot->queued.fetch_add(1, std::memory_order_relaxed);
  asio::post(slot->strand, [this, slot, handler = std::move(handler)] {
    HandlerEffects effects = execute(*slot, handler, emulator_);
    slot->queued.fetch_sub(1, std::memory_order_release);
    if (!effects.task.job) return;  // nothing ran
    asio::post(io_, [this, effects = std::move(effects)]() mutable { absorb(std::move(effects)); });
  });
}

bool TaskHost::may_run_inline(const TaskSlot& slot) const {
  return inline_us_ > 0 && !in_inline_handler_ &&
         slot.queued.load(std::memory_order_acquire) == 0 &&
         slot.handler_us.load(std::memory_order_relaxed) <= inline_us_;
}

// One handler with its bookkeeping; effects.task.job is 0 if the task was stopped or finished.
HandlerEffects TaskHost::execute(TaskSlot& slot, const Handler& handler, const Emulator* emulator) {
  if (slot.stopped || slot.finished) return HandlerEffects{};
  auto began = std::chrono::steady_clock::now();
  TaskContext ctx(slot, emulator);
  try {
    handler(slot, ctx);
  } catch (const std::exception& e) {
    ctx.effects().error = e.what();
  } catch (...) {
    ctx.effects().error = "unknown exception";
  }
  if (ctx.effects().finished || ctx.effects().error) slot.finished = true;
  ctx.effects().load = slot.task->load();
  ctx.effects().grain = grain_of(*slot.task);
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                std::chrono::steady_clock::now() - began).count();
  std::uint32_t old = slot.handler_us.load(std::memory_order_relaxed);
  std::uint32_t now_us = static_cast<std::uint32_t>(std::min<long long>(us, 1'000'000'000));
  slot.handler_us.store(old == ~0u ? now_us : (3 * old + now_us) / 4, std::memory_order_relaxed);
  return std::move(ctx.effects());
}

void TaskHost::absorb(HandlerEffects&& effects) {
  if (!effects.task.job) return;  // the handler did not run
  auto it = jobs_.find(effects.task.job);
  if (it == jobs_.end()) return;  // the job ended while the handler ran
  if (it->second.info->generation != effects.job->generation) return;  // it rolled back
  if (it->second.tasks.count(effects.task.index)) {
    loads_[effects.task] = effects.load;
    grains_[effects.task] = effects.grain;
  }
  busy_seconds_ += effects.busy_seconds;
  work_units_ += effects.work_units;
  sink_(std::move(effects));
}

std::shared_ptr<TaskSlot> TaskHost::find(TaskId id) const {
  auto it = jobs_.find(id.job);
  if (it == jobs_.end()) return nullptr;
  auto t = it->second.tasks.find(id.index);
  return t == it->second.tasks.end() ? nullptr : t->second;
}

bool TaskHost::frozen(TaskId task) const {
  auto slot = find(task);
  return slot && slot->frozen;
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
  return static_cast<std::uint32_t>(loads_.size());
}

double TaskHost::total_load() const {
  double sum = 0;
  for (const auto& [id, load] : loads_) sum += load;
  return sum;
}

TaskGrain TaskHost::grain(TaskId task) const {
  auto it = grains_.find(task);
  return it == grains_.end() ? TaskGrain{} : it->second;
}

double TaskHost::task_load(TaskId task) const {
  auto it = loads_.find(task);
  return it == loads_.end() ? 0 : it->second;
}

std::uint64_t TaskHost::epoch(TaskId task) const {
  auto slot = find(task);
  return slot ? slot->epoch : 0;
}

std::vector<TaskId> TaskHost::tasks() const {
  std::vector<TaskId> ids;
  for (const auto& [job, hosted] : jobs_) {
    for (const auto& [index, slot] : hosted.tasks) ids.push_back(slot->id);
  }
  return ids;
}

}  // namespace drift
