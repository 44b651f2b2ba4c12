#include "node/tasks/message_router.h"

#include <spdlog/spdlog.h>

namespace drift {

MessageRouter::MessageRouter(Messenger& messenger, TaskHost& host, LocationCache& cache,
                             ForwardingTable& pointers, NodeCounters& counters)
    : messenger_(messenger), host_(host), cache_(cache), pointers_(pointers), counters_(counters) {}

void MessageRouter::route(TaskMessage&& msg, std::uint32_t from_node) {
  const std::uint32_t self = messenger_.self_id();
  if (host_.deliver(std::move(msg), from_node)) return;
  if (from_node == self) return send_own(std::move(msg));
  if (ForwardingPointer* pointer = pointers_.find(msg.to)) {
    return forward(std::move(msg), from_node, *pointer);
  }
  if (cache_.home(msg.to.job) == self) {  // the home knows where its tasks are
    auto loc = cache_.lookup(msg.to);
    if (loc && loc->node != self && loc->node != from_node) {
      ++counters_.messages_forwarded;
      ++counters_.location_updates;
      messenger_.send_to_node(from_node, LocationUpdate{msg.to, loc->node, loc->epoch});
      messenger_.send_to_node(loc->node, std::move(msg));
      return;
    }
  }
  wait_for_home(std::move(msg));
}

// A message of one of our own tasks goes straight to the newest place we know: the cache is
// updated when a task leaves us and by every location update, so this is never "forwarding".
void MessageRouter::send_own(TaskMessage&& msg) {
  const std::uint32_t self = messenger_.self_id();
  auto loc = cache_.lookup(msg.to);
  const ForwardingPointer* pointer = pointers_.find(msg.to);
  if (pointer && (!loc || loc->epoch < pointer->epoch)) {
    loc = Location{pointer->dest, pointer->epoch};
  }
  if (loc && loc->node != self) {
    messenger_.send_to_node(loc->node, std::move(msg));
    return;
  }
  wait_for_home(std::move(msg));
}

void MessageRouter::forward(TaskMessage&& msg, std::uint32_t from_node,
                            ForwardingPointer& pointer) {
  const TaskId task = msg.to;
  const std::uint32_t dest = pointer.dest;
  const std::uint64_t epoch = pointer.epoch;
  ++counters_.messages_forwarded;
  bool tell = pointers_.forwarded(task, from_node, Clock::now());
  messenger_.send_to_node(dest, std::move(msg));
  if (tell) {
    ++counters_.location_updates;
    messenger_.send_to_node(from_node, LocationUpdate{task, dest, epoch});
  }
}

void MessageRouter::wait_for_home(TaskMessage&& msg) {
  const TaskId task = msg.to;
  const std::size_t bytes = msg.payload.size() + sizeof(TaskMessage);
  // Bounded, whatever other nodes send: messages for tasks nobody can place are dropped (and
  // counted), not kept; a job they belonged to recovers from its checkpoint.
  if (waiting_bytes_ + bytes > kMaxWaitingBytes ||
      (!waiting_.contains(task) && waiting_.size() >= kMaxWaitingTasks)) {
    ++counters_.refused;
    if (drop_log_.allow(Clock::now())) {
      spdlog::warn("dropped a message for task {:#x}:{}: {} messages ({} bytes) already wait for "
                   "{} tasks' places",
                   task.job, task.index, waiting(), waiting_bytes_, waiting_.size());
    }
    return;
  }
  auto [it, fresh] = waiting_.try_emplace(task);
  waiting_bytes_ += bytes;
  it->second.messages.push_back(std::move(msg));
  if (fresh) ask_home(task);
}

bool MessageRouter::arriving(TaskId task) const { return arriving_ && arriving_(task); }

void MessageRouter::ask_home(TaskId task) {
  waiting_[task].asked = Clock::now();
  std::uint32_t home = cache_.home(task.job);
  if (home == messenger_.self_id() || arriving(task)) return;  // an update or the state will come
  messenger_.send_to_node(home, LocationQuery{task});
}



void MessageRouter::on_location_update(const LocationUpdate& update) {
  cache_.update(update.task, update.node, update.epoch);
  // A pointer here collapses onto the newer place (A->B->C becomes A->C).
  if (ForwardingPointer* p = pointers_.find(update.task); p && p->epoch < update.epoch) {
    p->dest = update.node;
    p->epoch = update.epoch;
    p->told.clear();
  }
  auto it = waiting_.find(update.task);
  if (it == waiting_.end() || update.node == messenger_.self_id()) return;
  waiting_bytes_ -= bytes_of(it->second);
  std::vector<TaskMessage> messages = std::move(it->second.messages);
  waiting_.erase(it);
  for (auto& m : messages) route(std::move(m), messenger_.self_id());
}

void MessageRouter::on_location_query(const LocationQuery& query, std::uint32_t from_node) {
  if (host_.hosts(query.task)) {
    messenger_.send_to_node(from_node, LocationUpdate{query.task, messenger_.self_id(),
                                                      host_.epoch(query.task)});
    return;
  }
  auto loc = cache_.lookup(query.task);
  if (!loc) return;  // the job is over or unknown: the asker drops its messages at JobEnd
  ++counters_.location_updates;
  messenger_.send_to_node(from_node, LocationUpdate{query.task, loc->node, loc->epoch});
}

void MessageRouter::on_installed(TaskId task) {
  pointers_.remove(task);
  auto it = waiting_.find(task);
  if (it == waiting_.end()) return;
  waiting_bytes_ -= bytes_of(it->second);
  std::vector<TaskMessage> messages = std::move(it->second.messages);
  waiting_.erase(it);
  for (auto& m : messages) route(std::move(m), messenger_.self_id());
}

void MessageRouter::sweep(Clock::time_point now, std::chrono::milliseconds pointer_ttl) {
  for (auto it = waiting_.begin(); it != waiting_.end();) {
    auto& [task, w] = *it;
    if (now - w.since > kMaxWait) {  // no home ever placed it: a job long gone, or made up
      spdlog::warn("dropped {} messages for task {:#x}:{}: its place unknown for {} s",
                   w.messages.size(), task.job, task.index,
                   std::chrono::duration_cast<std::chrono::seconds>(now - w.since).count());
      counters_.refused += w.messages.size();
      waiting_bytes_ -= bytes_of(w);
      it = waiting_.erase(it);
      continue;
    }
    if (now - w.asked > std::chrono::seconds(1)) ask_home(task);
    ++it;
  }
  pointers_.expire(now, pointer_ttl);
}

std::size_t MessageRouter::bytes_of(const Waiting& w) {
  std::size_t n = 0;
  for (const auto& m : w.messages) n += m.payload.size() + sizeof(TaskMessage);
  return n;
}

void MessageRouter::drop_job(std::uint64_t job) {
  std::erase_if(waiting_, [&](const auto& entry) {
    if (entry.first.job != job) return false;
    waiting_bytes_ -= bytes_of(entry.second);
    return true;
  });
  pointers_.drop_job(job);
  cache_.drop_job(job);
}

std::size_t MessageRouter::waiting() const {
  std::size_t n = 0;
  for (const auto& [task, w] : waiting_) n += w.messages.size();
  return n;
}

}  // namespace drift
