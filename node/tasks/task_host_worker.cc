// TaskHost's side towards its workers: every frame a worker sends is checked against what the
// daemon knows of its job (task indices, generation, pending captures and installs, state
// sizes) before it is acted on; a frame that breaks the protocol ends that worker, never the
// daemon. And what happens when a worker is gone.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>
#include <map>

#include "node/tasks/task_host.h"
#include "node/net/loop_watch.h"

namespace drift {

namespace {

std::string task_text(std::uint32_t index) { return "task " + std::to_string(index); }

// A load, a time or a count a worker reported: itself if a finite number >= 0, else 0.
double non_negative(double v) { return std::isfinite(v) && v >= 0 ? v : 0; }

// "WorkerStateBytes from a worker": a name that lives as long as the program.
const char* worker_hold_name(const WorkerMessage& msg) {
  static const auto names = [] {
    std::map<MsgType, std::string> out;
    for (auto t = static_cast<std::uint16_t>(MsgType::kWorkerSetup);
         t <= static_cast<std::uint16_t>(MsgType::kWorkerEffects); ++t) {
      out[static_cast<MsgType>(t)] = std::string(to_string(static_cast<MsgType>(t))) + " from a worker";
    }
    return out;
  }();
  auto it = names.find(type_of(msg));
  return it == names.end() ? "a worker's message" : it->second.c_str();
}

}  // namespace

void TaskHost::on_worker_message(std::uint64_t job, const WorkerProcess* worker,
                                 WorkerMessage&& msg) {
  const LoopHold hold(worker_hold_name(msg));
  HostedJob* hosted = find_job(job);
  if (!hosted || hosted->worker.get() != worker) return;  // an old worker of the job
  const MsgType type = type_of(msg);
  Status st = Status::ok();
  try {
    st = dispatch_worker_message(*hosted, std::move(msg));
  } catch (const std::exception& e) {  // what it asked for could not be done (memory): it ends
    st = Status::error(std::string("handling its ") + to_string(type) + " failed: " + e.what());
  }
  if (!st) {
    // The hosted job may be gone by now (a hook ended it): find the worker again.
    if (HostedJob* h = find_job(job); h && h->worker.get() == worker) h->worker->refuse(st.message());
  }
}

Status TaskHost::dispatch_worker_message(HostedJob& hosted, WorkerMessage&& msg) {
  return std::visit(
      [&](auto&& m) -> Status {
        using M = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<M, TaskMessage>) {
          return on_sent(hosted, std::move(m));
        } else if constexpr (std::is_same_v<M, WorkerEffects>) {
          return on_effects(hosted, std::move(m));
        } else if constexpr (std::is_same_v<M, WorkerStateBytes>) {
          return on_state_bytes(hosted, std::move(m));
        } else if constexpr (std::is_same_v<M, WorkerCreated>) {
          return on_created(hosted, m);
        } else if constexpr (std::is_same_v<M, WorkerInstalled>) {
          return on_installed(hosted, m);
        } else if constexpr (std::is_same_v<M, WorkerCaptureSized>) {
          return on_capture_sized(hosted, m);
        } else if constexpr (std::is_same_v<M, WorkerCaptureDone>) {
          return on_capture_done(hosted, m);
        } else if constexpr (std::is_same_v<M, WorkerReady>) {
          spdlog::debug("job {:#x}: worker pid {} of '{}' is ready", hosted.info->id, m.pid,
                        m.app);
          return Status::ok();
        } else {
          return Status::error(std::string("it sent a ") + to_string(M::kType) +
                               ", which only a daemon sends");
        }
      },
      std::move(msg));
}

// A message a task of the worker sent out of it. The sender may have moved on meanwhile (its
// state, captured after this handler, counts this message): it is routed all the same.
Status TaskHost::on_sent(HostedJob& hosted, TaskMessage&& msg) {
  const JobInfo& info = *hosted.info;
  if (msg.from.job != info.id || msg.to.job != info.id || msg.from.index >= info.spec.tasks ||
      msg.to.index >= info.spec.tasks) {
    return Status::error("a message from task " + std::to_string(msg.from.job) + ":" +
                         std::to_string(msg.from.index) + " to " + std::to_string(msg.to.job) +
                         ":" + std::to_string(msg.to.index) + ", outside its job");
  }
  if (msg.generation != info.generation) {
    return Status::error("a message of generation " + std::to_string(msg.generation) +
                         " (its job's is " + std::to_string(info.generation) + ")");
  }
  if (msg.from.index == kRootSender) return Status::error("a message in the root's name");
  hooks_.route(std::move(msg));
  return Status::ok();
}

Status TaskHost::on_effects(HostedJob& hosted, WorkerEffects&& r) {
  const JobInfo& info = *hosted.info;
  if (r.index >= info.spec.tasks) {
    return Status::error("effects of " + task_text(r.index) + ", outside its job of " +
                         std::to_string(info.spec.tasks) + " tasks");
  }
  // Only a task that runs in this worker has effects: a worker's word about another task of
  // its job (or one gone since, in a rollback) goes no further.
  const auto task = hosted.tasks.find(r.index);
  if (task == hosted.tasks.end()) {
    spdlog::debug("job {:#x}: effects of {}, which is not here, dropped", info.id,
                  task_text(r.index));
    return Status::ok();
  }
  // What goes on to the root must fit a frame between nodes, and a task contributes to the
  // job's steps, each at most once: a handler that says otherwise is not a task's.
  constexpr std::size_t kMaxContributions = 1024, kMaxValues = 1024, kMaxError = 4096;
  if (r.contributions.size() > kMaxContributions) {
    return Status::error("one handler of " + task_text(r.index) + " contributed to " +
                         std::to_string(r.contributions.size()) + " steps");
  }
  for (const WorkerContribution& c : r.contributions) {
    if (c.step >= info.spec.steps || c.values.size() > kMaxValues) {
      return Status::error(task_text(r.index) + " contributed " + std::to_string(c.values.size()) +
                           " values to step " + std::to_string(c.step) + " of a job of " +
                           std::to_string(info.spec.steps) + " steps");
    }
  }
  if (r.result.size() + 4096 > params_.max_frame) {
    return Status::error("the result of " + task_text(r.index) + " has " +
                         std::to_string(r.result.size()) + " bytes; at most " +
                         std::to_string(params_.max_frame - 4096) + " fit a frame");
  }
  if (r.error.size() > kMaxError) r.error.resize(kMaxError);
  if (r.local_partners.size() > info.spec.tasks) {
    return Status::error(std::to_string(r.local_partners.size()) + " partners of " +
                         task_text(r.index) + " in a job of " + std::to_string(info.spec.tasks) +
                         " tasks");
  }
  const TaskId id{info.id, r.index};
  HandlerEffects e;
  e.task = id;
  e.job = hosted.info;
  for (std::uint32_t partner : r.local_partners) {
    if (partner >= info.spec.tasks) {
      return Status::error("partner " + task_text(partner) + " of " + task_text(r.index) +
                           ", outside its job");
    }
    e.partners.push_back(TaskId{info.id, partner});
  }
  for (WorkerContribution& c : r.contributions) {
    e.contributions.push_back(
        ReductionContribution{info.id, r.index, c.step, std::move(c.values), info.generation});
  }
  if (r.finished) e.finished = TaskFinished{info.id, r.index, std::move(r.result), info.generation};
  if (r.failed) e.error = r.error.empty() ? std::string("the task failed") : r.error;
  auto saved = hosted.checkpoint_bytes.find(r.index);
  if (r.checkpoint) {
    if (saved == hosted.checkpoint_bytes.end() || saved->second.total != r.checkpoint_bytes ||
        saved->second.bytes.size() != r.checkpoint_bytes) {
      return Status::error("a checkpoint of " + task_text(r.index) + " of " +
                           std::to_string(r.checkpoint_bytes) + " bytes whose bytes did not come");
    }
    e.checkpoint = CheckpointState{
        r.checkpoint_step,
        std::make_shared<const std::vector<std::uint8_t>>(std::move(saved->second.bytes))};
    hosted.drop_checkpoint(r.index);
  } else if (saved != hosted.checkpoint_bytes.end()) {
    return Status::error("checkpoint bytes of " + task_text(r.index) + " that no checkpoint used");
  }
  e.load = non_negative(r.load);
  e.grain.splittable = r.splittable;
  if (r.has_merge_partner && r.merge_partner < info.spec.tasks) e.grain.merge_partner = r.merge_partner;
  e.busy_seconds = non_negative(r.busy_seconds);
  e.work_units = non_negative(r.work_units);
  // CPU time within the wall time (a little more with timer granularity; never more than that).
  e.cpu_seconds = std::min(non_negative(r.cpu_seconds), e.busy_seconds * 1.01 + 1e-3);
  task->second.load = e.load;
  task->second.grain = e.grain;
  if (e.finished || e.error) task->second.finished = true;
  busy_seconds_ += e.busy_seconds;
  work_units_ += e.work_units;
  hooks_.effects(std::move(e));
  return Status::ok();
}

Status TaskHost::on_state_bytes(HostedJob& hosted, WorkerStateBytes&& piece) {
  hosted.state_went_on = std::chrono::steady_clock::now();
  state_bytes_from_workers_ += piece.bytes.size();
  if (piece.kind == StateBytesKind::kCheckpoint) {
    // Of a task here (it may have left since its handler ran: that copy is not wanted).
    if (piece.index >= hosted.info->spec.tasks) {
      return Status::error("checkpoint bytes of " + task_text(piece.index) + ", outside its job");
    }
    if (!hosted.tasks.count(piece.index)) return Status::ok();
    auto [it, first] = hosted.checkpoint_bytes.try_emplace(piece.index);
    HostedJob::IncomingCheckpoint& in = it->second;
    if (first) {
      // checkpoint_total <= max_state() always: the difference does not wrap.
      if (piece.total > max_state() - hosted.checkpoint_total) {
        hosted.checkpoint_bytes.erase(it);
        return Status::error("a checkpoint of " + std::to_string(piece.total) + " bytes of " +
                             task_text(piece.index) + " beside " +
                             std::to_string(hosted.checkpoint_total) +
                             " of others (checkpoints at once may have " +
                             std::to_string(max_state()) + ")");
      }
      in.total = piece.total;
      hosted.checkpoint_total += piece.total;
      spdlog::debug("job {:#x}: checkpoint of {} coming in from the worker ({} bytes)",
                    hosted.info->id, task_text(piece.index), piece.total);
      // Reserved whole at the first piece: no piece copies the ones before it again.
      in.bytes.reserve(piece.total);
    }
    if (piece.total != in.total || piece.bytes.size() > in.total - in.bytes.size()) {
      return Status::error("a checkpoint piece of " + std::to_string(piece.bytes.size()) +
                           " bytes of " + task_text(piece.index) + " in a state of " +
                           std::to_string(piece.total) + " after " +
                           std::to_string(in.bytes.size()) + " of a state of " +
                           std::to_string(in.total));
    }
    in.bytes.insert(in.bytes.end(), piece.bytes.begin(), piece.bytes.end());
    return Status::ok();
  }
  if (piece.kind != StateBytesKind::kCapture) {
    return Status::error("state bytes of " + task_text(piece.index) +
                         " to install, which only the daemon sends");
  }
  auto it = hosted.captures.find(piece.index);
  if (it == hosted.captures.end() || it->second.attempt != piece.attempt) {
    return Status::ok();  // a capture given up meanwhile
  }
  Capture& c = it->second;
  if (!c.sized || piece.bytes.size() > c.sink.piece_bytes ||
      piece.bytes.size() > c.total - c.received) {
    return Status::error("a state piece of " + std::to_string(piece.bytes.size()) + " bytes of " +
                         task_text(piece.index) + (c.sized ? " beyond the " : " before its size; ") +
                         std::to_string(c.total) + " bytes announced (pieces are at most " +
                         std::to_string(c.sink.piece_bytes) + ")");
  }
  c.received += piece.bytes.size();
  // Into a pooled buffer with room for the frame header in front, as the chunk frame wants it.
  BufferPool::Ptr buffer = BufferPool::shared().take(c.sink.piece_front + piece.bytes.size());
  if (!piece.bytes.empty()) {
    std::memcpy(buffer->data.get() + c.sink.piece_front, piece.bytes.data(), piece.bytes.size());
  }
  c.sink.piece(c.pieces++, std::move(buffer));
  return Status::ok();
}

Status TaskHost::on_created(HostedJob& hosted, const WorkerCreated& created) {
  if (hosted.creating.empty()) return Status::error("a WorkerCreated nobody asked for");
  auto [indices, done] = std::move(hosted.creating.front());
  hosted.creating.erase(hosted.creating.begin());
  if (created.ok && created.loads.size() != indices.size()) {
    const std::string why = "loads for " + std::to_string(created.loads.size()) + " tasks, not " +
                            std::to_string(indices.size());
    if (done) done(Status::error("its worker answered with " + why));
    return Status::error(why);
  }
  if (created.ok) {
    hosted.worker_up = true;
    for (std::size_t i = 0; i < indices.size(); ++i) {
      auto t = hosted.tasks.find(indices[i]);
      if (t != hosted.tasks.end()) t->second.load = non_negative(created.loads[i]);
    }
  }
  Status result = created.ok ? Status::ok() : Status::error(created.error);
  if (done) {
    done(result);
  } else if (!created.ok) {  // a rollback's tasks made afresh: the job fails with the reason
    for (std::uint32_t index : indices) {
      HandlerEffects e;
      e.task = TaskId{hosted.info->id, index};
      e.job = hosted.info;
      e.error = created.error;
      hooks_.effects(std::move(e));
      break;
    }
  }
  return Status::ok();
}

Status TaskHost::on_installed(HostedJob& hosted, const WorkerInstalled& installed) {
  auto it = hosted.installing.find(installed.index);
  if (it == hosted.installing.end()) {
    return Status::error("a WorkerInstalled of " + task_text(installed.index) +
                         ", which is not arriving");
  }
  Installing in = std::move(it->second);
  hosted.installing.erase(it);
  if (installed.ok) hosted.worker_up = true;
  // Handed over every piece and ended, normally; a worker answering early must not leave the
  // pump waiting for chunks (the join would block this thread).
  if (in.stream) in.stream->fail("the worker answered before the state was all in");
  if (in.pump.joinable()) in.pump.join();
  const double load = non_negative(installed.load);
  const TaskId id{hosted.info->id, installed.index};
  if (!in.done) {  // a rollback's restore: the task is listed already
    if (installed.ok) {
      if (auto t = hosted.tasks.find(installed.index); t != hosted.tasks.end()) {
        t->second.load = load;
      }
      return Status::ok();
    }
    HandlerEffects e;
    e.task = id;
    e.job = hosted.info;
    e.error = "its checkpoint does not load: " + installed.error;
    hooks_.effects(std::move(e));
    return Status::ok();
  }
  if (in.committed) return on_committed_load(hosted, id, load, std::move(in.done), installed);
  if (!installed.ok) {
    in.done(Status::error(installed.error));
    return Status::ok();
  }
  HostedTask& t = hosted.tasks[installed.index];
  t.epoch = in.epoch;
  t.load = load;
  t.running = true;  // it moved in running
  in.done(Status::ok());
  return Status::ok();
}

// A task that lives here since its state arrived (the source let it go) has loaded, or not: then
// it is lost, and with it the job here, as if its worker had died (a half-made task must not run
// on), and its root rolls the job back. `hosted` is gone after a failed load.
Status TaskHost::on_committed_load(HostedJob& hosted, TaskId id, double load, InstallDone done,
                                   const WorkerInstalled& installed) {
  auto t = hosted.tasks.find(id.index);
  if (t == hosted.tasks.end()) {  // not listed since (no path leads here): nothing to lose
    if (done) done(Status::error(task_text(id.index) + " was dropped while it loaded"));
    return Status::ok();
  }
  if (installed.ok) {
    t->second.loading = false;
    t->second.load = load;
    // Asked to move on while it loaded: the freeze and the capture go to the worker now.
    if (t->second.frozen) send(hosted, WorkerTaskControl{id.index, TaskControlAction::kFreeze});
    if (auto c = hosted.captures.find(id.index); c != hosted.captures.end()) {
      send(hosted, WorkerCapture{id.index, c->second.attempt, c->second.sink.piece_bytes});
    }
    if (done) done(Status::ok());
    return Status::ok();
  }
  const std::string why = task_text(id.index) + " did not load here after its move: " +
                          installed.error;
  if (done) done(Status::error(why));
  spdlog::warn("job {:#x}: {}", id.job, why);
  stop_worker(hosted, true);
  lose(id.job, why);
  return Status::ok();
}

Status TaskHost::on_capture_sized(HostedJob& hosted, const WorkerCaptureSized& sized) {
  auto it = hosted.captures.find(sized.index);
  if (it == hosted.captures.end() || it->second.attempt != sized.attempt) return Status::ok();
  if (it->second.sized) return Status::error("a second size of " + task_text(sized.index));
  if (sized.total > max_state()) {
    return Status::error("a state of " + std::to_string(sized.total) + " bytes of " +
                         task_text(sized.index) + " (at most " + std::to_string(max_state()) +
                         ")");
  }
  it->second.sized = true;
  it->second.total = sized.total;
  it->second.sink.sized(sized.total);
  return Status::ok();
}

Status TaskHost::on_capture_done(HostedJob& hosted, const WorkerCaptureDone& done) {
  auto it = hosted.captures.find(done.index);
  if (it == hosted.captures.end() || it->second.attempt != done.attempt) return Status::ok();
  const bool whole = it->second.sized && it->second.received == it->second.total;
  CaptureSink sink = std::move(it->second.sink);
  hosted.captures.erase(it);
  if (done.ok && !whole) {
    sink.done(Status::error("the worker sent less of the task's state than it announced"));
    return Status::error("a capture of " + task_text(done.index) + " ended short of its size");
  }
  sink.done(done.ok ? Status::ok() : Status::error(done.error));
  return Status::ok();
}

void TaskHost::fail_pending(HostedJob& hosted, const std::string& why) {
  std::vector<Done> creating;
  for (auto& [indices, done] : hosted.creating) {
    if (done) creating.push_back(std::move(done));
  }
  hosted.creating.clear();
  std::vector<InstallDone> installing;
  for (auto& [index, in] : hosted.installing) {
    if (in.stream) in.stream->fail(why);
    if (in.pump.joinable()) in.pump.join();
    if (in.done) installing.push_back(std::move(in.done));
  }
  hosted.installing.clear();
  std::vector<CaptureSink> captures;
  for (auto& [index, c] : hosted.captures) captures.push_back(std::move(c.sink));
  hosted.captures.clear();
  hosted.checkpoint_bytes.clear();
  hosted.checkpoint_total = 0;
  for (auto& done : creating) done(Status::error(why));
  for (auto& done : installing) done(Status::error(why));
  for (auto& sink : captures) sink.done(Status::error(why));
}

void TaskHost::on_worker_gone(std::uint64_t job, const WorkerProcess* worker,
                              const WorkerProcess::Ending& ending) {
  HostedJob* hosted = find_job(job);
  if (!hosted || hosted->worker.get() != worker) return;
  const pid_t pid = hosted->worker->pid();
  std::string why = (pid > 0 ? "its worker (pid " + std::to_string(pid) + ") " : "its worker ") +
                    ending.how;
  if (!ending.stderr_tail.empty()) {
    std::string tail = ending.stderr_tail;
    while (!tail.empty() && tail.back() == '\n') tail.pop_back();
    why += "; its last lines on stderr:\n" + tail;
  }
  spdlog::warn("job {:#x}: {}", job, why);
  lose(job, why);
}

void TaskHost::lose(std::uint64_t job, const std::string& why) {
  HostedJob* hosted = find_job(job);
  if (!hosted) return;
  const bool had_work = !hosted->tasks.empty() || !hosted->installing.empty() ||
                        !hosted->creating.empty();
  std::vector<std::uint32_t> tasks;
  for (const auto& [index, t] : hosted->tasks) tasks.push_back(index);
  const std::shared_ptr<const JobInfo> info = hosted->info;
  fail_pending(*hosted, why);
  jobs_.erase(job);
  if (had_work) hooks_.lost(*info, tasks, why);
}

}  // namespace drift
