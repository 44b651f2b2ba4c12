#include "node/migration_service.h"

#include <spdlog/spdlog.h>

#include "protocol/codec.h"

namespace drift {

namespace {
std::string task_name(TaskId t) {
  return fmt::format("{:#x}:{}", t.job, t.index);
}
double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}
}  // namespace

MigrationService::MigrationService(Messenger& messenger, TaskHost& host, MessageRouter& router,
                                   LocationCache& cache, ForwardingTable& pointers,
                                   NodeCounters& counters, const AppRegistry& apps, Params params,
                                   IsAlive is_alive, FreeMemory free, JobEnded job_ended)
    : messenger_(messenger),
      host_(host),
      router_(router),
      cache_(cache),
      pointers_(pointers),
      counters_(counters),
      apps_(apps),
      params_(params),
      is_alive_(std::move(is_alive)),
      free_memory_(std::move(free)),
      job_ended_(std::move(job_ended)) {}

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
  if (home_of(cmd.task.job) == self) {
    auto loc = cache_.lookup(cmd.task);
    if (loc && loc->node != self) return messenger_.send_to_node(loc->node, cmd);
  }
  report(cmd, false, "task " + task_name(cmd.task) + " not found on node " +
                         std::to_string(self) + " (finished, or no such task)");
}

void MigrationService::start(const MigrateCommand& cmd) {
  const std::uint32_t self = messenger_.self_id();
  if (cmd.dest == self) return report(cmd, false, "task is already on node " + std::to_string(self));
  if (!is_alive_(cmd.dest)) {
    return report(cmd, false, "node " + std::to_string(cmd.dest) + " is not a live member");
  }
  if (auto st = host_.freeze(cmd.task); !st) return report(cmd, false, st.message());
  Outgoing out;
  out.cmd = cmd;
  out.epoch = host_.epoch(cmd.task) + 1;
  out.began = Clock::now();
  outgoing_[cmd.task] = std::move(out);
  host_.capture(cmd.task, [this, task = cmd.task](Result<std::vector<std::uint8_t>> state) {
    on_captured(task, std::move(state));
  });
}

void MigrationService::on_captured(TaskId task, Result<std::vector<std::uint8_t>> state) {
  auto it = outgoing_.find(task);
  if (it == outgoing_.end()) return;
  if (!state) return finish(task, false, state.error());
  Outgoing& out = it->second;
  out.state = std::make_shared<const std::vector<std::uint8_t>>(std::move(state).value());
  spdlog::debug("migration of {}: captured {} bytes after {:.3f} ms", task_name(task),
                out.state->size(), ms_since(out.began));
  auto info = host_.job_info(task.job);
  if (!info) return finish(task, false, "the job ended");
  MigrationOffer offer{task,
                       out.epoch,
                       info->root,
                       info->spec,
                       out.state->size(),
                       chunk_count(out.state->size(), params_.chunk_bytes)};
  messenger_.send_to_node(out.cmd.dest, std::move(offer));
}

void MigrationService::on_answer(const MigrationAnswer& answer, std::uint32_t from) {
  auto it = outgoing_.find(answer.task);
  if (it == outgoing_.end() || it->second.epoch != answer.epoch || it->second.cmd.dest != from) {
    return;
  }
  if (!answer.accepted) {
    return finish(answer.task, false,
                  "node " + std::to_string(from) + " refused the task: " + answer.reason);
  }
  Outgoing& out = it->second;
  spdlog::debug("migration of {}: accepted after {:.3f} ms", task_name(answer.task),
                ms_since(out.began));
  const std::uint32_t chunks = chunk_count(out.state->size(), params_.chunk_bytes);
  for (std::uint32_t i = 0; i < chunks; ++i) {
    auto piece = chunk_of(*out.state, i, params_.chunk_bytes);
    MigrationChunk chunk{answer.task, out.epoch, i, {}};
    Frame frame = make_frame(encode_prefix(chunk, piece.size()));
    frame.tail_owner = out.state;
    frame.tail = piece;
    messenger_.send_frame(from, std::move(frame));
  }
  spdlog::debug("migration of {}: {} chunks queued after {:.3f} ms", task_name(answer.task),
                chunks, ms_since(out.began));
}

void MigrationService::on_done(const MigrationDone& done, std::uint32_t from) {
  auto it = outgoing_.find(done.task);
  if (it == outgoing_.end() || it->second.epoch != done.epoch || it->second.cmd.dest != from) {
    return;
  }
  finish(done.task, done.ok,
         done.ok ? "" : "node " + std::to_string(from) + " could not install it: " + done.reason);
}

// Ends a move at the source: the task becomes a pointer (ok) or runs on here (not ok).
void MigrationService::finish(TaskId task, bool ok, const std::string& reason) {
  auto it = outgoing_.find(task);
  if (it == outgoing_.end()) return;
  Outgoing out = std::move(it->second);
  outgoing_.erase(it);
  double seconds = std::chrono::duration<double>(Clock::now() - out.began).count();
  if (!ok) {
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
  counters_.bytes_moved += out.state->size();
  for (auto& h : held) router_.route(std::move(h.msg), h.from_node);
  std::uint32_t home = home_of(task.job);
  if (home != messenger_.self_id()) ++counters_.location_updates;
  messenger_.send_to_node(home, LocationUpdate{task, dest, out.epoch});
  spdlog::info("migrated {} to node {}: {} bytes in {:.3f} s", task_name(task), dest,
               out.state->size(), seconds);
  report(out.cmd, true, "", out.state->size(), seconds);
}

std::optional<std::string> MigrationService::refusal(const MigrationOffer& offer) const {
  if (!params_.accept) return "node " + std::to_string(messenger_.self_id()) +
                              " does not accept tasks (unavailable)";
  if (!apps_.find(offer.spec.app)) return "unknown application '" + offer.spec.app + "'";
  if (job_ended_(offer.task.job)) return "the job has ended";
  if (host_.hosts(offer.task)) return "the task already lives here";
  if (incoming_.count(offer.task)) return "the task is already arriving";
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

void MigrationService::on_offer(const MigrationOffer& offer, std::uint32_t from) {
  if (auto why = refusal(offer)) {
    spdlog::info("refused task {} from node {}: {}", task_name(offer.task), from, *why);
    return messenger_.send_to_node(from, MigrationAnswer{offer.task, offer.epoch, false, *why});
  }
  incoming_.erase(offer.task);
  incoming_.emplace(offer.task,
                    Incoming{offer, from,
                             StateAssembler(offer.state_bytes, offer.chunks, params_.chunk_bytes)});
  messenger_.send_to_node(from, MigrationAnswer{offer.task, offer.epoch, true, ""});
}

void MigrationService::on_chunk(const ChunkView& chunk, std::uint32_t from) {
  auto it = incoming_.find(chunk.task);
  if (it == incoming_.end() || it->second.from != from ||
      it->second.offer.epoch != chunk.epoch) {
    return;
  }
  Incoming& in = it->second;
  if (in.installing) return;
  if (auto st = in.assembler.add(chunk.index, chunk.bytes); !st) {
    MigrationDone done{chunk.task, chunk.epoch, false, st.message()};
    incoming_.erase(it);
    return messenger_.send_to_node(from, std::move(done));
  }
  if (!in.assembler.complete()) return;
  install(in);
}

void MigrationService::install(Incoming& in) {
  const MigrationOffer& offer = in.offer;
  in.installing = true;
  auto info = host_.job_info(offer.task.job);
  if (!info) {
    auto made = std::make_shared<JobInfo>();
    made->id = offer.task.job;
    made->root = offer.root;
    made->spec = offer.spec;
    made->app = apps_.find(offer.spec.app);
    if (auto st = made->app->validate(made->spec); !st) {
      return installed(offer.task, offer.epoch, st);
    }
    info = made;
  }
  auto state = std::make_shared<const std::vector<std::uint8_t>>(in.assembler.take());
  host_.install(info, offer.task, offer.epoch, std::move(state),
                [this, task = offer.task, epoch = offer.epoch](Status st) {
                  installed(task, epoch, std::move(st));
                });
}

// The install finished (or failed): tell the source; what waited for the task moves on.
void MigrationService::installed(TaskId task, std::uint64_t epoch, Status status) {
  auto it = incoming_.find(task);
  if (it == incoming_.end() || it->second.offer.epoch != epoch) {
    if (status && job_ended_(task.job)) host_.end(task.job);  // ended while loading
    return;
  }
  const std::uint32_t from = it->second.from;
  incoming_.erase(it);
  if (!status) {
    router_.on_installed(task);  // nothing lives here: waiting messages go to the source
    return messenger_.send_to_node(from, MigrationDone{task, epoch, false, status.message()});
  }
  ++counters_.migrations_in;
  cache_.update(task, messenger_.self_id(), epoch);
  router_.on_installed(task);
  messenger_.send_to_node(from, MigrationDone{task, epoch, true, ""});
}

void MigrationService::drop_job(std::uint64_t job) {
  std::erase_if(incoming_, [&](const auto& entry) { return entry.first.job == job; });
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
  std::erase_if(incoming_, [&](const auto& entry) { return entry.second.from == node; });
}

}  // namespace drift
