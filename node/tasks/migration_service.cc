#include "node/tasks/migration_service.h"

#include "node/workers/job_binaries.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "protocol/codec.h"

namespace drift {

namespace {
std::string task_name(TaskId t) {
  return fmt::format("{:#x}:{}", t.job, t.index);
}
double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}
// A chunk's frame up to its state bytes: header, task, epoch, index, length. Fixed-width fields,
// so the same for every chunk; the capture leaves this much room in front of each piece.
std::size_t chunk_frame_prefix() {
  static const std::size_t bytes = encode_prefix(MigrationChunk{}, 0).size();
  return bytes;
}
}  // namespace

MigrationService::MigrationService(Messenger& messenger, TaskHost& host, MessageRouter& router,
                                   LocationCache& cache, ForwardingTable& pointers,
                                   NodeCounters& counters, Params params,
                                   IsAlive is_alive, FreeMemory free, JobEnded job_ended)
    : messenger_(messenger),
      host_(host),
      router_(router),
      cache_(cache),
      pointers_(pointers),
      counters_(counters),
      params_(params),
      is_alive_(std::move(is_alive)),
      free_memory_(std::move(free)),
      job_ended_(std::move(job_ended)),
      reservations_(params_.reservation_lifetime) {}

void MigrationService::report(const MigrateCommand& cmd, bool ok, const std::string& reason,
                              std::uint64_t bytes, double seconds) {
  if (cmd.request == 0) {  // made by the runtime itself (e.g. chaos migrations): log only
    if (!ok) spdlog::debug("migration of {} not done: {}", task_name(cmd.task), reason);
    return;
  }
  MigrationReport r{cmd.request, cmd.task, ok, reason, messenger_.self_id(), cmd.dest, bytes,
                    seconds};
  messenger_.send_to_node(cmd.origin, std::move(r));
}

void MigrationService::on_command(const MigrateCommand& cmd) {
  const std::uint32_t self = messenger_.self_id();
  if (host_.hosts(cmd.task)) return start(cmd);
  if (ForwardingPointer* p = pointers_.find(cmd.task)) {
    return messenger_.send_to_node(p->dest, cmd);
  }
  if (cache_.home(cmd.task.job) == self) {
    auto loc = cache_.lookup(cmd.task);
    if (loc && loc->node != self) return messenger_.send_to_node(loc->node, cmd);
  }
  report(cmd, false, "task " + task_name(cmd.task) + " not found on node " +
                         std::to_string(self) + " (finished, or no such task)");
}

void MigrationService::move(TaskId task, std::uint32_t dest, const BalanceBasis& basis) {
  start(MigrateCommand{0, messenger_.self_id(), task, dest}, basis);
}

std::vector<TaskId> MigrationService::moving_tasks() const {
  std::vector<TaskId> out;
  for (const auto& [task, move] : outgoing_) out.push_back(task);
  return out;
}

JobRoots MigrationService::moving_jobs(Clock::time_point since) const {
  JobRoots out;
  for (const auto& [task, move] : outgoing_) {
    if (move.went_on < since) continue;
    if (auto info = host_.job_info(task.job)) out[task.job] = {info->root, info->generation};
  }
  for (const auto& [task, in] : incoming_) {
    // Every chunk in, its worker loads it (at a twentieth of a core, seconds for 64 MB).
    if (in.went_on >= since || in.installing) out[task.job] = {in.offer.root, in.offer.generation};
  }
  return out;
}

std::vector<TaskId> MigrationService::leaving_tasks() const {
  std::vector<TaskId> out;
  const Clock::time_point reserved = Clock::now() - params_.reservation_grace;
  for (const auto& [task, move] : outgoing_) {
    if (move.accepted || (move.basis.balance && move.began <= reserved)) out.push_back(task);
  }
  return out;
}

double MigrationService::incoming_balance_load() const {
  double sum = reservations_.load(Clock::now());
  for (const auto& [task, in] : incoming_) {
    if (in.offer.basis.balance) sum += in.offer.basis.task_load;
  }
  return sum;
}

void MigrationService::start(const MigrateCommand& cmd, const BalanceBasis& basis) {
  const std::uint32_t self = messenger_.self_id();
  if (cmd.dest == self) return report(cmd, false, "task is already on node " + std::to_string(self));
  if (!is_alive_(cmd.dest)) {
    return report(cmd, false, "node " + std::to_string(cmd.dest) + " is not a live member");
  }
  if (auto st = host_.freeze(cmd.task); !st) return report(cmd, false, st.message());
  Outgoing out;
  out.cmd = cmd;
  out.basis = basis;
  out.epoch = host_.epoch(cmd.task) + 1;
  out.began = Clock::now();
  out.attempt = ++attempts_;
  out.cancel = std::make_shared<std::atomic<bool>>(false);
  TaskHost::CaptureSink sink;
  sink.piece_bytes = params_.chunk_bytes;
  sink.piece_front = chunk_frame_prefix();
  sink.cancel = out.cancel;
  const TaskId task = cmd.task;
  const std::uint64_t attempt = out.attempt;
  sink.sized = [this, task, attempt](std::uint64_t bytes) { on_sized(task, attempt, bytes); };
  sink.piece = [this, task, attempt](std::uint32_t index, BufferPool::Ptr piece) {
    on_piece(task, attempt, index, std::move(piece));
  };
  sink.done = [this, task, attempt](Status st) { on_captured(task, attempt, st); };
  const std::uint64_t epoch = out.epoch;
  outgoing_[task] = std::move(out);
  if (basis.balance) {
    BalanceReservation reservation{task, epoch, basis.task_load};
    counters_.balance_bytes += encode(WireMessage(reservation)).size() + kFrameHeaderSize;
    messenger_.send_to_node(cmd.dest, std::move(reservation));
  }
  host_.capture(task, std::move(sink));
}

MigrationService::Outgoing* MigrationService::outgoing(TaskId task, std::uint64_t attempt) {
  auto it = outgoing_.find(task);
  return it == outgoing_.end() || it->second.attempt != attempt ? nullptr : &it->second;
}

// The state's size is known before its bytes: the offer goes out while they are written.
void MigrationService::on_sized(TaskId task, std::uint64_t attempt, std::uint64_t bytes) {
  Outgoing* out = outgoing(task, attempt);
  if (!out) return;
  auto info = host_.job_info(task.job);
  if (!info) return finish(task, false, "the job ended");
  out->state_bytes = bytes;
  out->offered = true;
  out->sized = Clock::now();
  out->went_on = out->sized;
  spdlog::debug("migration of {}: {} bytes to write, offered after {:.3f} ms", task_name(task),
                bytes, ms_since(out->began));
  MigrationOffer offer{task,
                       out->epoch,
                       info->root,
                       info->spec,
                       bytes,
                       chunk_count(bytes, params_.chunk_bytes),
                       out->basis,
                       info->generation};
  messenger_.send_to_node(out->cmd.dest, std::move(offer));
}

// A piece of the state is written: it becomes a chunk frame in place (its buffer has room for
// the frame's start) and goes out at once (accepted, or a small state: right behind its offer),
// or when the destination accepts.
void MigrationService::on_piece(TaskId task, std::uint64_t attempt, std::uint32_t index,
                                BufferPool::Ptr piece) {
  Outgoing* out = outgoing(task, attempt);
  if (!out) return;
  out->went_on = Clock::now();
  const std::size_t front = chunk_frame_prefix();
  const std::vector<std::uint8_t> prefix =
      encode_prefix(MigrationChunk{task, out->epoch, index, {}}, piece->size - front);
  if (prefix.size() != front) return finish(task, false, "a chunk's header changed its size");
  std::copy(prefix.begin(), prefix.end(), piece->data.get());
  Frame frame;
  frame.tail = piece->bytes();
  frame.tail_owner = std::move(piece);
  if (out->offered && out->state_bytes <= kEagerBytes) {
    return messenger_.send_frame(out->cmd.dest, std::move(frame), /*bulk=*/false);
  }
  if (!out->accepted) return out->early.push_back(std::move(frame));
  messenger_.send_frame(out->cmd.dest, std::move(frame));
}

void MigrationService::on_captured(TaskId task, std::uint64_t attempt, const Status& status) {
  Outgoing* out = outgoing(task, attempt);
  if (!out) return;
  if (!status) return finish(task, false, status.message());
  spdlog::debug("migration of {}: {} bytes written after {:.3f} ms", task_name(task),
                out->state_bytes, ms_since(out->began));
}

void MigrationService::on_answer(const MigrationAnswer& answer, std::uint32_t from) {
  auto it = outgoing_.find(answer.task);
  if (it == outgoing_.end() || it->second.epoch != answer.epoch || it->second.cmd.dest != from) {
    return;
  }
  if (!answer.accepted) {
    return finish(answer.task, false,
                  "node " + std::to_string(from) + " refused the task: " + answer.reason, false);
  }
  Outgoing& out = it->second;
  spdlog::debug("migration of {}: accepted after {:.3f} ms, {} chunks written by then",
                task_name(answer.task), ms_since(out.began), out.early.size());
  out.accepted = true;
  out.went_on = Clock::now();
  for (Frame& frame : out.early) messenger_.send_frame(from, std::move(frame));
  out.early.clear();
}

void MigrationService::on_done(const MigrationDone& done, std::uint32_t from) {
  if (!done.ok) reservations_.release(done.task, done.epoch);
  auto it = outgoing_.find(done.task);
  if (it != outgoing_.end() && it->second.epoch == done.epoch && it->second.cmd.dest == from) {
    return finish(
        done.task, done.ok,
        done.ok ? "" : "node " + std::to_string(from) + " could not install it: " + done.reason,
        false);
  }
  // We are the destination and the source gave the move up (its capture failed, the job
  // ended): what arrived is dropped, and what waited for the task goes to the source again.
  auto in = incoming_.find(done.task);
  if (done.ok || in == incoming_.end() || in->second.from != from ||
      in->second.offer.epoch != done.epoch || in->second.installing) {
    return;
  }
  spdlog::info("node {} gave up moving task {} here: {}", from, task_name(done.task), done.reason);
  drop_incoming(in, "node " + std::to_string(from) + " gave the move up: " + done.reason);
  router_.on_installed(done.task);
}

// Ends a move at the source: the task becomes a pointer (ok) or runs on here (not ok).
void MigrationService::finish(TaskId task, bool ok, const std::string& reason,
                              bool tell_destination) {
  auto it = outgoing_.find(task);
  if (it == outgoing_.end()) return;
  Outgoing out = std::move(it->second);
  outgoing_.erase(it);
  double seconds = std::chrono::duration<double>(Clock::now() - out.began).count();
  if (!ok) {
    out.cancel->store(true, std::memory_order_release);  // a capture still writing stops
    // Not offered yet, a balancing move is still reserved there: that ends too.
    if ((out.offered || out.basis.balance) && tell_destination) {
      messenger_.send_to_node(out.cmd.dest, MigrationDone{task, out.epoch, false, reason});
    }
    host_.resume(task);
    spdlog::info("migration of {} to node {} failed, it resumes here: {}", task_name(task),
                 out.cmd.dest, reason);
    return report(out.cmd, false, reason);
  }
  const std::uint32_t dest = out.cmd.dest;
  auto info = host_.job_info(task.job);
  std::vector<HeldMessage> held = host_.release(task);
  pointers_.add(task, dest, out.epoch, Clock::now());
  cache_.update(task, dest, out.epoch);
  ++counters_.migrations_out;
  counters_.bytes_moved += out.state_bytes;
  for (auto& h : held) router_.route(std::move(h.msg), h.from_node);
  std::uint32_t home = cache_.home(task.job);
  if (home != messenger_.self_id()) ++counters_.location_updates;
  messenger_.send_to_node(home, LocationUpdate{task, dest, out.epoch});
  spdlog::info("migrated {} to node {}: {} bytes in {:.3f} s", task_name(task), dest,
               out.state_bytes, seconds);
  const double cost = std::chrono::duration<double>(Clock::now() - out.sized).count();
  move_seconds_ = move_seconds_ == 0 ? cost : 0.7 * move_seconds_ + 0.3 * cost;
  report(out.cmd, true, "", out.state_bytes, seconds);
}

std::optional<std::string> MigrationService::refusal(const MigrationOffer& offer) const {
  if (!params_.accept) return "node " + std::to_string(messenger_.self_id()) +
                              " does not accept tasks (unavailable)";
  if (job_ended_(offer.task.job)) return "the job has ended";
  if (!runs_on(offer.spec, params_.arch)) {
    return "the job has no executable for this node's architecture, " + params_.arch;
  }
  if (host_.knows_job(offer.task.job) && host_.generation(offer.task.job) != offer.generation) {
    return "the task is of generation " + std::to_string(offer.generation) + ", the job here of " +
           std::to_string(host_.generation(offer.task.job)) + " (it rolled back)";
  }
  if (host_.hosts(offer.task)) return "the task already lives here";
  if (incoming_.count(offer.task)) return "the task is already arriving";
  if (offer.basis.balance && balance_check_) {
    if (auto why = balance_check_(offer.basis)) return why;
  }
  std::uint64_t limit = params_.memory_limit > 0 ? params_.memory_limit : free_memory_() / 2;
  if (offer.state_bytes > limit) {
    return "not enough memory: " + std::to_string(offer.state_bytes) + " bytes offered, " +
           std::to_string(limit) + " available";
  }
  if (offer.chunks != chunk_count(offer.state_bytes, params_.chunk_bytes)) {
    return "offer of " + std::to_string(offer.chunks) + " chunks does not match our chunk size";
  }
  return std::nullopt;
}

void MigrationService::on_reservation(const BalanceReservation& reservation,
                                      std::uint32_t from) {
  if (!params_.accept) return;  // its offer will be refused
  reservations_.reserve(from, reservation.task, reservation.epoch, reservation.load, Clock::now());
}

void MigrationService::on_offer(const MigrationOffer& offer, std::uint32_t from) {
  reservations_.release(offer.task, offer.epoch);  // the offer counts from here on, or is refused
  if (auto why = refusal(offer)) {
    spdlog::info("refused task {} from node {}: {}", task_name(offer.task), from, *why);
    return messenger_.send_to_node(from, MigrationAnswer{offer.task, offer.epoch, false, *why});
  }
  Incoming in{offer, from, ++attempts_,
              StateAssembler(offer.state_bytes, offer.chunks, params_.chunk_bytes), nullptr, false,
              Clock::now(), Clock::now()};
  if (offer.chunks >= kStreamingChunks) {
    in.stream = std::make_shared<StateStream>(offer.state_bytes, offer.chunks, params_.chunk_bytes);
  }
  incoming_.erase(offer.task);
  Incoming& accepted = incoming_.emplace(offer.task, std::move(in)).first->second;
  messenger_.send_to_node(from, MigrationAnswer{offer.task, offer.epoch, true, ""});
  if (accepted.stream) install(accepted);  // it reads the chunks as they come
}

void MigrationService::on_chunk(const ChunkView& chunk, std::uint32_t from) {
  auto it = incoming_.find(chunk.task);
  if (it == incoming_.end() || it->second.from != from ||
      it->second.offer.epoch != chunk.epoch) {
    return;
  }
  Incoming& in = it->second;
  if (in.installing) return;
  in.went_on = Clock::now();
  Status st = in.stream ? in.stream->add(chunk.index, chunk.bytes, chunk.owner)
                        : in.assembler.add(chunk.index, chunk.bytes, chunk.owner);
  if (!st) {
    MigrationDone done{chunk.task, chunk.epoch, false, st.message()};
    drop_incoming(it, st.message());
    return messenger_.send_to_node(from, std::move(done));
  }
  if (!(in.stream ? in.stream->complete() : in.assembler.complete())) return;
  spdlog::debug("migration of {} from node {}: {} chunks in after {:.3f} ms", task_name(chunk.task),
                from, in.offer.chunks, ms_since(in.began));
  in.installing = true;
  if (!in.stream) install(in);
}

void MigrationService::drop_incoming(std::map<TaskId, Incoming>::iterator it,
                                     const std::string& reason) {
  if (it->second.stream && !it->second.installing) it->second.stream->fail(reason);
  incoming_.erase(it);
}

// The job as this node knows it, or as the offer describes it.
Result<std::shared_ptr<const JobInfo>> MigrationService::job_for(
    const MigrationOffer& offer) const {
  if (auto info = host_.job_info(offer.task.job)) return info;
  auto made = std::make_shared<JobInfo>();
  made->id = offer.task.job;
  made->root = offer.root;
  made->generation = offer.generation;
  made->spec = offer.spec;
  return std::shared_ptr<const JobInfo>(std::move(made));
}

void MigrationService::install(Incoming& in) {
  const MigrationOffer& offer = in.offer;
  auto info = job_for(offer);
  if (!info) return installed(offer.task, in.attempt, info.status());
  auto done = [this, task = offer.task, attempt = in.attempt](Status st) {
    installed(task, attempt, std::move(st));
  };
  if (in.stream) return host_.install_streaming(*info, offer.task, offer.epoch, in.stream, done);
  auto state = std::make_shared<const StatePieces>(in.assembler.take());
  // A small state into a worker that is up already (it made or loaded a task): the task lives
  // here once its state is handed over, and the source learns so at once, while the worker loads
  // it (one round trip to the worker less on the move's path). Its load failing after that is
  // the job's loss here, as a worker's death is: it rolls back. A large state, or a worker still
  // to start, is loaded first (either can fail for want of memory, then the task runs on at the
  // source).
  const TaskId task = offer.task;
  const std::uint64_t attempt = in.attempt;
  const bool commit = offer.state_bytes <= kEagerBytes && host_.worker_up(task.job);
  host_.install(*info, task, offer.epoch, std::move(state), done, commit);
  if (commit) installed(task, attempt, Status::ok());
}

// The install finished (or failed): tell the source; what waited for the task moves on.
void MigrationService::installed(TaskId task, std::uint64_t attempt, Status status) {
  auto it = incoming_.find(task);
  if (it == incoming_.end() || it->second.attempt != attempt) {
    if (status && job_ended_(task.job)) host_.end(task.job);  // ended while loading
    return;
  }
  const std::uint32_t from = it->second.from;
  const std::uint64_t epoch = it->second.offer.epoch;
  const Clock::time_point began = it->second.began;
  const BalanceBasis basis = it->second.offer.basis;
  drop_incoming(it, status ? "" : status.message());
  if (!status) {
    router_.on_installed(task);  // nothing lives here: waiting messages go to the source
    return messenger_.send_to_node(from, MigrationDone{task, epoch, false, status.message()});
  }
  ++counters_.migrations_in;
  if (installed_hook_) installed_hook_(task, basis);
  spdlog::debug("migration of {} from node {}: {} after {:.3f} ms", task_name(task), from,
                host_.loading(task) ? "handed to its worker" : "installed", ms_since(began));
  cache_.update(task, messenger_.self_id(), epoch);
  router_.on_installed(task);
  messenger_.send_to_node(from, MigrationDone{task, epoch, true, ""});
}

void MigrationService::drop_job(std::uint64_t job) {
  reservations_.drop_job(job);
  for (auto it = incoming_.begin(); it != incoming_.end();) {
    auto here = it++;
    if (here->first.job == job) drop_incoming(here, "the job ended");
  }
  std::vector<TaskId> leaving;
  for (const auto& [task, out] : outgoing_) {
    if (task.job == job) leaving.push_back(task);
  }
  for (TaskId t : leaving) finish(t, false, "the job ended");
}

void MigrationService::on_node_dead(std::uint32_t node) {
  std::vector<TaskId> stuck;
  for (const auto& [task, out] : outgoing_) {
    if (out.cmd.dest == node) stuck.push_back(task);
  }
  for (TaskId t : stuck) finish(t, false, "node " + std::to_string(node) + " died");
  reservations_.drop_from(node);
  for (auto it = incoming_.begin(); it != incoming_.end();) {
    auto here = it++;
    if (here->second.from == node) drop_incoming(here, "node " + std::to_string(node) + " died");
  }
}

}  // namespace drift
