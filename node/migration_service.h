// Moves tasks between nodes (DESIGN.md §7). Source: freeze the task after its current handler,
// capture its state, offer it to the destination, ship it in chunks behind small messages, and on
// the destination's "installed" turn the task into a forwarding pointer, forward what arrived
// meanwhile and tell the task's home. If the destination refuses or fails, the task resumes here.
// Destination: accept or refuse an offer (availability, memory), assemble the chunks, install and
// start the task, deliver what waited for it. Commands ("move task T to node N") reach the
// holder through the task's home. Network thread only.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>

#include "migration/forwarding_table.h"
#include "migration/location_cache.h"
#include "migration/state_transfer.h"
#include "node/application.h"
#include "node/message_router.h"
#include "node/messenger.h"
#include "node/task_host.h"
#include "protocol/codec.h"

namespace drift {

class MigrationService {
 public:
  using Clock = std::chrono::steady_clock;
  struct Params {
    std::uint32_t chunk_bytes = kDefaultChunkBytes;
    bool accept = true;              // take tasks from other nodes at all
    std::uint64_t memory_limit = 0;  // bytes of incoming state we take; 0: half the free memory
  };
  using IsAlive = std::function<bool(std::uint32_t)>;
  using FreeMemory = std::function<std::uint64_t()>;
  using JobEnded = std::function<bool(std::uint64_t)>;

  MigrationService(Messenger& messenger, TaskHost& host, MessageRouter& router,
                   LocationCache& cache, ForwardingTable& pointers, NodeCounters& counters,
                   const AppRegistry& apps, Params params, IsAlive is_alive, FreeMemory free,
                   JobEnded job_ended);

  // A command arrived (or was made here): move the task if it lives here, else pass it on.
  void on_command(const MigrateCommand& cmd);
  void on_answer(const MigrationAnswer& answer, std::uint32_t from);
  void on_done(const MigrationDone& done, std::uint32_t from);
  void on_offer(const MigrationOffer& offer, std::uint32_t from);
  void on_chunk(const ChunkView& chunk, std::uint32_t from);
  // A peer died: moves to it resume here, moves from it are dropped.
  void on_node_dead(std::uint32_t node);
  // The job is over: state arriving for it is dropped.
  void drop_job(std::uint64_t job);
  void set_accepting(bool accept) { params_.accept = accept; }
  // The task's state is on its way here: messages for it should wait, not ask the home.
  bool arriving(TaskId task) const { return incoming_.count(task) > 0; }

 private:
  struct Outgoing {
    MigrateCommand cmd;
    std::uint64_t epoch = 0;  // the task's move count once it arrives
    std::shared_ptr<const std::vector<std::uint8_t>> state;
    Clock::time_point began;
  };
  struct Incoming {
    MigrationOffer offer;
    std::uint32_t from = 0;
    StateAssembler assembler;
    bool installing = false;
  };

  void start(const MigrateCommand& cmd);
  void on_captured(TaskId task, Result<std::vector<std::uint8_t>> state);
  void finish(TaskId task, bool ok, const std::string& reason);
  void report(const MigrateCommand& cmd, bool ok, const std::string& reason,
              std::uint64_t bytes = 0, double seconds = 0);
  std::optional<std::string> refusal(const MigrationOffer& offer) const;
  void install(Incoming& in);
  void installed(TaskId task, std::uint64_t epoch, Status status);

  Messenger& messenger_;
  TaskHost& host_;
  MessageRouter& router_;
  LocationCache& cache_;
  ForwardingTable& pointers_;
  NodeCounters& counters_;
  const AppRegistry& apps_;
  Params params_;
  IsAlive is_alive_;
  FreeMemory free_memory_;
  JobEnded job_ended_;
  std::map<TaskId, Outgoing> outgoing_;
  std::map<TaskId, Incoming> incoming_;
};

}  // namespace drift
