#include "sdk/worker_host.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <new>

#include "migration/buffer_pool.h"
#include "migration/state_writer.h"
#include "protocol/root_channel.h"
#include "protocol/worker_codec.h"
#include "sdk/hosted_task_state.h"

namespace drift {

namespace {

// Payloads at least this large are written from their own buffer instead of being copied.
constexpr std::size_t kZeroCopyBytes = 64u << 10;

EmulationSettings emulation_of(const WorkerSetup& s) {
  EmulationSettings e;
  e.speed = s.emulate_speed;
  e.unit_rate = s.emulate_unit_rate;
  for (const WireLoadRamp& r : s.emulate_load) e.load.push_back({r.start_s, r.ramp_s, r.level});
  return e;
}

Emulator::Clock::time_point daemon_start(double elapsed_s) {
  return Emulator::Clock::now() -
         std::chrono::duration_cast<Emulator::Clock::duration>(
             std::chrono::duration<double>(std::max(0.0, elapsed_s)));
}

}  // namespace

std::string WorkerHost::index_text(std::uint32_t index) { return "task " + std::to_string(index); }

WorkerHost::WorkerHost(asio::io_context& io, asio::thread_pool& pool, const Application& app,
                       const WorkerSetup& setup, Send send)
    : io_(io),
      pool_(pool),
      job_{setup.job, setup.root, setup.generation, setup.node, setup.spec, &app},
      emulator_(emulation_of(setup), daemon_start(setup.emulate_elapsed_s)),
      // An emulated compute sleeps: never on the I/O thread.
      inline_us_(emulator_.enabled() ? 0 : setup.inline_us),
      max_payload_(setup.max_payload),
      piece_bytes_(std::max<std::uint32_t>(setup.piece_bytes, 4096)),
      send_(std::move(send)),
      alive_(std::make_shared<bool>(true)),
      hold_(io, [this](std::vector<Frame> frames) { send_(std::move(frames)); }) {}

WorkerHost::~WorkerHost() {
  *alive_ = false;
  for (auto& [index, slot] : slots_) slot->stopped = true;
}

Status WorkerHost::handle(WorkerMessage&& msg) {
  return std::visit(
      [this](auto&& m) -> Status {
        using M = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<M, WorkerCreate>) {
          return create(m);
        } else if constexpr (std::is_same_v<M, WorkerStart>) {
          start_all();
          return Status::ok();
        } else if constexpr (std::is_same_v<M, TaskMessage>) {
          return deliver(std::move(m));
        } else if constexpr (std::is_same_v<M, WorkerTaskControl>) {
          return control(m);
        } else if constexpr (std::is_same_v<M, WorkerPause>) {
          pause(m.paused);
          return Status::ok();
        } else if constexpr (std::is_same_v<M, WorkerCapture>) {
          return capture(m);
        } else if constexpr (std::is_same_v<M, WorkerInstall>) {
          return begin_install(m);
        } else if constexpr (std::is_same_v<M, WorkerStateBytes>) {
          return install_bytes(std::move(m));
        } else {
          return Status::error(std::string("unexpected ") + to_string(M::kType) +
                               " from the daemon");
        }
      },
      std::move(msg));
}

void WorkerHost::reply(const WorkerMessage& msg) { emit(make_frame(encode_worker(msg))); }

// Every frame but a task's message goes after the reports held before it.
void WorkerHost::emit(Frame frame, bool overtakes_held) {
  std::vector<Frame> local;
  std::vector<Frame>& out = outbox_ ? *outbox_ : local;
  if (!overtakes_held) hold_.take(out);
  out.push_back(std::move(frame));
  if (!outbox_) send_(std::move(local));
}

void WorkerHost::report(const WorkerEffects& report) {
  Frame frame = make_frame(encode_worker(report));
  const bool urgent = report.finished || report.failed || report.checkpoint;
  if (!urgent && hold_.hold(frame)) return;
  emit(std::move(frame));
}

Status WorkerHost::create(const WorkerCreate& req) {
  JobSpec spec = job_.spec;
  Status valid = Status::ok();
  try {
    valid = job_.app->validate(spec);
  } catch (const std::exception& e) {
    valid = Status::error(std::string("validate threw: ") + e.what());
  }
  if (!valid) {
    reply(WorkerCreated{false, job_.app->name() + ": " + valid.message(), {}});
    return Status::ok();
  }
  std::vector<std::pair<std::uint32_t, std::shared_ptr<TaskSlot>>> made;
  for (std::uint32_t index : req.indices) {
    if (index >= job_.spec.tasks || slots_.count(index) || installs_.count(index)) {
      return Status::error("WorkerCreate names " + index_text(index) + ", which is outside the " +
                           "job or already here");
    }
    std::unique_ptr<Task> task;
    try {
      task = job_.app->create_task(job_.spec, index);
    } catch (const std::exception& e) {
      reply(WorkerCreated{false, index_text(index) + " could not be made: " + e.what(), {}});
      return Status::ok();
    }
    if (!task) {
      reply(WorkerCreated{false,
                          job_.app->name() + " made no task for index " + std::to_string(index),
                          {}});
      return Status::ok();
    }
    made.emplace_back(index, std::make_shared<TaskSlot>(TaskId{job_.id, index}, job_,
                                                        std::move(task), pool_));
  }
  WorkerCreated created{true, "", {}};
  try {
    for (auto& [index, slot] : made) created.loads.push_back(slot->task->load());
  } catch (const std::exception& e) {
    reply(WorkerCreated{false, std::string("load() threw: ") + e.what(), {}});
    return Status::ok();
  }
  for (auto& [index, slot] : made) slots_.emplace(index, std::move(slot));
  reply(created);
  return Status::ok();
}

void WorkerHost::start_all() {
  started_ = true;
  std::vector<std::shared_ptr<TaskSlot>> starting;
  for (auto& [index, slot] : slots_) {
    if (!slot->started) starting.push_back(slot);
  }
  for (auto& slot : starting) start_task(slot);
}

void WorkerHost::start_task(const std::shared_ptr<TaskSlot>& slot) {
  slot->started = true;
  run(slot, [](TaskSlot& s, TaskContext& ctx) { s.task->start(ctx); });
  std::vector<TaskMessage> waiting = std::move(slot->unstarted);
  slot->unstarted.clear();
  for (TaskMessage& m : waiting) post_delivery(slot, std::move(m));
}

Status WorkerHost::deliver(TaskMessage&& msg) {
  if (msg.to.job != job_.id) {
    return Status::error("a message for job " + std::to_string(msg.to.job) +
                         " reached the worker of job " + std::to_string(job_.id));
  }
  if (msg.generation != job_.generation) return Status::ok();  // the daemon's race; dropped
  if (auto it = installs_.find(msg.to.index); it != installs_.end()) {
    it->second.waiting.push_back(std::move(msg));  // delivered once the task is loaded
    return Status::ok();
  }
  auto slot = find(msg.to.index);
  if (!slot) return Status::ok();  // it finished, or left: nothing to deliver to
  post_delivery(slot, std::move(msg));
  return Status::ok();
}

void WorkerHost::post_delivery(const std::shared_ptr<TaskSlot>& slot, TaskMessage&& msg) {
  if (!slot->started) {
    // Frozen to move before it started: its state is about to be captured without it, so the
    // daemon holds it with the task's other deliveries.
    if (slot->frozen) return send_task_message(std::move(msg));
    return slot->unstarted.push_back(std::move(msg));
  }
  auto shared = std::make_shared<TaskMessage>(std::move(msg));
  run(slot, [shared](TaskSlot& s, TaskContext& ctx) {
    // A checkpointed reduction: the state is saved before the task takes it, so after a rollback
    // the root's resent reduction is the next message on its channel. It is always the next one
    // (every task contributed to its step, so each took the previous reduction).
    if (shared->tag == kCheckpointTag && shared->from.index == kRootSender &&
        s.receiver.next_expected(shared->from) == shared->seq) {
      PortableOutputArchive ar;
      save_hosted_task(ar, *s.task, s.receiver, s.sender);
      s.state_bytes.store(ar.bytes().size(), std::memory_order_relaxed);
      ctx.effects().checkpoint = SavedCheckpoint{
          shared->seq - 1, std::make_shared<const std::vector<std::uint8_t>>(
                               std::move(ar).take_bytes())};
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

Status WorkerHost::control(const WorkerTaskControl& req) {
  if (auto it = installs_.find(req.index);
      it != installs_.end() && req.action == TaskControlAction::kRelease) {
    // A move given up while its state was arriving: what came goes, and a load under way is
    // dropped when it ends (on_loaded finds no install).
    installs_.erase(it);
    return Status::ok();
  }
  auto slot = find(req.index);
  if (!slot) {
    // A task that finished, or failed to load, may be asked about once more; nothing to do.
    return Status::ok();
  }
  switch (req.action) {
    case TaskControlAction::kFreeze: {
      slot->frozen = true;
      // The daemon holds its deliveries from now on; these join them (its state, captured
      // next, has not seen them).
      std::vector<TaskMessage> waiting = std::move(slot->unstarted);
      slot->unstarted.clear();
      for (TaskMessage& m : waiting) send_task_message(std::move(m));
      break;
    }
    case TaskControlAction::kResume:
      slot->frozen = false;
      break;
    case TaskControlAction::kRelease:
      slot->stopped = true;
      slots_.erase(req.index);
      break;
  }
  return Status::ok();
}

void WorkerHost::pause(bool paused) { paused_ = paused; }

// Runs handler on the task's strand; its effects return to the I/O thread in one batch. A task
// whose handlers are short and that has nothing queued runs it right here instead: only this
// thread posts to the strand, so with nothing queued no pool thread can be running the task.
void WorkerHost::run(const std::shared_ptr<TaskSlot>& slot, Handler handler) {
  if (slot->capturing) {
    return slot->deferred.push_back(
        [this, slot, handler = std::move(handler)]() mutable { run(slot, std::move(handler)); });
  }
  if (may_run_inline(*slot)) {
    in_inline_handler_ = true;  // also while its effects are routed: no nested inline handlers
    absorb(execute(*slot, handler));
    in_inline_handler_ = false;
    return;
  }
  slot->queued.fetch_add(1, std::memory_order_relaxed);
  hold_.posted();
  asio::post(slot->strand, [this, slot, handler = std::move(handler), alive = alive_] {
    HandlerOutcome effects = execute(*slot, handler);
    // Counted as queued until its effects are handed on: a later handler must not run inline
    // and overtake them.
    asio::post(io_, [this, slot, alive, effects = std::move(effects)]() mutable {
      slot->queued.fetch_sub(1, std::memory_order_release);
      if (!*alive) return;
      hold_.done();  // its own report waits only for the other handlers under way
      // The last one's report goes with those held, in one write.
      if (effects.task.job) absorb(std::move(effects));
      hold_.release_if_idle();
    });
  });
}

bool WorkerHost::may_run_inline(const TaskSlot& slot) const {
  return inline_us_ > 0 && !in_inline_handler_ &&
         slot.queued.load(std::memory_order_acquire) == 0 &&
         slot.handler_us.load(std::memory_order_relaxed) <= inline_us_;
}

// One handler with its bookkeeping; effects.task.job is 0 if the task was stopped or finished.
HandlerOutcome WorkerHost::execute(TaskSlot& slot, const Handler& handler) {
  if (slot.stopped || slot.finished) return HandlerOutcome{};
  const auto began = std::chrono::steady_clock::now();
  TaskContext ctx(slot, &emulator_, max_payload_);
  WorkerEffects& report = ctx.effects().report;
  try {
    handler(slot, ctx);
  } catch (const std::bad_alloc&) {
    report.failed = true;
    report.error = "out of memory (std::bad_alloc): the task needs more memory than the worker "
                   "may use on this node (worker.memory_limit)";
  } catch (const std::exception& e) {
    report.failed = true;
    report.error = e.what();
  } catch (...) {
    report.failed = true;
    report.error = "unknown exception";
  }
  if (report.finished || report.failed) slot.finished = true;
  try {
    report.load = slot.task->load();
    report.splittable = slot.task->can_split();
    if (auto partner = slot.task->merge_partner()) {
      report.has_merge_partner = true;
      report.merge_partner = *partner;
    }
  } catch (const std::exception& e) {
    report.failed = true;
    report.error = std::string("load() or the task's grain threw: ") + e.what();
    slot.finished = true;
  }
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::steady_clock::now() - began).count();
  const std::uint32_t old = slot.handler_us.load(std::memory_order_relaxed);
  const auto now_us = static_cast<std::uint32_t>(std::min<long long>(us, 1'000'000'000));
  slot.handler_us.store(old == ~0u ? now_us : (3 * old + now_us) / 4, std::memory_order_relaxed);
  return std::move(ctx.effects());
}

// I/O thread: messages to tasks here go straight to them, unless the daemon holds the
// receiver's deliveries (frozen for a move, or the node paused): those go out with the rest.
void WorkerHost::absorb(HandlerOutcome&& effects) {
  if (!effects.task.job) return;
  // The messages out and the report go in one write; a nested absorb (a local delivery run
  // inline) adds to the same outbox.
  std::vector<Frame> outbox;
  const bool outermost = outbox_ == nullptr;
  if (outermost) outbox_ = &outbox;
  WorkerEffects& report = effects.report;
  for (TaskMessage& m : effects.sends) {
    auto local = find(m.to.index);
    if (local && !local->frozen && !paused_) {
      if (std::find(report.local_partners.begin(), report.local_partners.end(), m.to.index) ==
          report.local_partners.end()) {
        report.local_partners.push_back(m.to.index);
      }
      post_delivery(local, std::move(m));
    } else {
      send_task_message(std::move(m));
    }
  }
  if (effects.checkpoint) {
    report.checkpoint = true;
    report.checkpoint_step = effects.checkpoint->step;
    report.checkpoint_bytes = effects.checkpoint->state->size();
    send_state(StateBytesKind::kCheckpoint, report.index, 0, effects.checkpoint->state);
  }
  this->report(report);
  if (outermost) {
    outbox_ = nullptr;
    send_(std::move(outbox));
  }
}

void WorkerHost::send_task_message(TaskMessage&& msg) {
  // A message may overtake held reports: they carry nothing its receiver waits for.
  if (msg.payload.size() < kZeroCopyBytes) return emit(make_frame(encode_worker(msg)), true);
  auto payload = std::make_shared<const std::vector<std::uint8_t>>(std::move(msg.payload));
  msg.payload.clear();
  Frame frame = make_frame(encode_worker_prefix(msg, payload->size()));
  frame.tail = std::span<const std::uint8_t>(*payload);
  frame.tail_owner = std::move(payload);
  emit(std::move(frame), true);
}

std::shared_ptr<TaskSlot> WorkerHost::find(std::uint32_t index) const {
  auto it = slots_.find(index);
  return it == slots_.end() ? nullptr : it->second;
}

}  // namespace drift
