// Gets every task message to its task, wherever it is now (docs/architecture.md §6–7): delivered here if
// the task lives here; a local sender's message goes straight to the newest known place; a
// message from another node that finds the task gone is forwarded along the forwarding pointer
// (or, at the task's home, to the home's known place) and the sender's node is told the new
// place, once per node and move; otherwise it waits while the task's home is asked. Messages
// from other nodes never follow this node's cache, only pointers or the home's answer, so stale
// caches cannot bounce a message between two nodes. What waits is bounded (256 MiB, 65536
// tasks, 120 s each); beyond that messages are dropped and counted (NodeCounters.refused).
// Network thread only.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <vector>

#include "migration/forwarding_table.h"
#include "migration/location_cache.h"
#include "node/net/log_limiter.h"
#include "node/net/messenger.h"
#include "node/tasks/task_host.h"
#include "protocol/messages.h"

namespace drift {

class MessageRouter {
 public:
  using Clock = std::chrono::steady_clock;

  MessageRouter(Messenger& messenger, TaskHost& host, LocationCache& cache,
                ForwardingTable& pointers, NodeCounters& counters);

  // `from_node` is the node the message arrived from (ourselves for local senders).
  void route(TaskMessage&& msg, std::uint32_t from_node);
  void on_location_update(const LocationUpdate& update);
  // We are the task's home: answer with what we know.
  void on_location_query(const LocationQuery& query, std::uint32_t from_node);
  // The task now lives here (or its arrival failed): deliver or send on what waited for it.
  void on_installed(TaskId task);
  // Tells whether a task's state is on its way here, so its messages wait without asking home.
  void set_arrival_check(std::function<bool(TaskId)> arriving) { arriving_ = std::move(arriving); }
  // Re-asks the home for messages that waited too long; drops unused pointers.
  void sweep(Clock::time_point now, std::chrono::milliseconds pointer_ttl);
  void drop_job(std::uint64_t job);
  std::size_t waiting() const;

 private:
  struct Waiting {
    std::vector<TaskMessage> messages;
    Clock::time_point asked;
    Clock::time_point since = Clock::now();
  };
  // What may wait for a task's place at once, and for how long.
  static constexpr std::size_t kMaxWaitingBytes = 256u << 20;
  static constexpr std::size_t kMaxWaitingTasks = 1u << 16;
  static constexpr std::chrono::seconds kMaxWait{120};
  static std::size_t bytes_of(const Waiting& w);

  void send_own(TaskMessage&& msg);
  void forward(TaskMessage&& msg, std::uint32_t from_node, ForwardingPointer& pointer);
  void wait_for_home(TaskMessage&& msg);
  void ask_home(TaskId task);
  bool arriving(TaskId task) const;

  Messenger& messenger_;
  TaskHost& host_;
  LocationCache& cache_;
  ForwardingTable& pointers_;
  NodeCounters& counters_;
  std::map<TaskId, Waiting> waiting_;
  std::size_t waiting_bytes_ = 0;
  LogLimiter drop_log_{10, std::chrono::seconds(10)};
  std::function<bool(TaskId)> arriving_;
};

}  // namespace drift
