// Moves tasks between nodes (docs/architecture.md §7). Source: freeze the task after its current handler,
// count its state's bytes, offer it to the destination, and ship it in chunks behind small
// messages while it is being written (chunks written before the answer wait for it); on the
// destination's "installed" turn the task into a forwarding pointer, forward what arrived
// meanwhile and tell the task's home. If the destination refuses or fails, or the capture fails,
// the task resumes here (and a destination that accepted is told to drop what it has).
// Destination: accept or refuse an offer (availability, memory), keep the chunks as they arrive,
// install the task straight from them and start it, deliver what waited for it. Commands ("move
// task T to node N") reach the holder through the task's home. Network thread only.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>

#include "migration/forwarding_table.h"
#include "migration/location_cache.h"
#include "migration/state_transfer.h"
#include "node/balance/load_reservations.h"
#include "node/tasks/job_info.h"
#include "node/tasks/message_router.h"
#include "node/net/messenger.h"
#include "node/tasks/task_host.h"
#include "protocol/codec.h"

namespace drift {

class MigrationService {
 public:
  using Clock = std::chrono::steady_clock;
  struct Params {
    std::uint32_t chunk_bytes = kDefaultChunkBytes;
    bool accept = true;              // take tasks from other nodes at all
    std::uint64_t memory_limit = 0;  // bytes of incoming state we take; 0: half the free memory
    // How long a balancing sender's reservation counts here without its offer (a lost one).
    std::chrono::milliseconds reservation_lifetime{30000};
    // How long a balancing move still counts here after it was decided, until the destination's
    // heartbeats carry its reservation (two heartbeat intervals): counted meanwhile on neither
    // side, the group's other senders would see the group emptier than it is and all send.
    std::chrono::milliseconds reservation_grace{200};
    std::string arch;  // this node's: a job without an executable for it is refused
  };
  using IsAlive = std::function<bool(std::uint32_t)>;
  using FreeMemory = std::function<std::uint64_t()>;
  using JobEnded = std::function<bool(std::uint64_t)>;

  MigrationService(Messenger& messenger, TaskHost& host, MessageRouter& router,
                   LocationCache& cache, ForwardingTable& pointers, NodeCounters& counters,
                   Params params, IsAlive is_alive, FreeMemory free,
                   JobEnded job_ended);

  // A command arrived (or was made here): move the task if it lives here, else pass it on.
  void on_command(const MigrateCommand& cmd);
  void on_answer(const MigrationAnswer& answer, std::uint32_t from);
  void on_done(const MigrationDone& done, std::uint32_t from);
  void on_offer(const MigrationOffer& offer, std::uint32_t from);
  void on_chunk(const ChunkView& chunk, std::uint32_t from);
  // A balancing sender decided to move a task here; its offer follows (load_reservations.h).
  void on_reservation(const BalanceReservation& reservation, std::uint32_t from);
  // A peer died: moves to it resume here, moves from it are dropped.
  void on_node_dead(std::uint32_t node);
  // The job is over: state arriving for it is dropped.
  void drop_job(std::uint64_t job);
  void set_accepting(bool accept) { params_.accept = accept; }
  // The balancer moves a task that lives here; the offer carries the sender's view (`basis`) so
  // the destination can re-check it with `balance_check` (a reason refuses the move). The
  // destination is told at once (a reservation) and counts the task's load from then on.
  void move(TaskId task, std::uint32_t dest, const BalanceBasis& basis);
  using BalanceCheck = std::function<std::optional<std::string>(const BalanceBasis&)>;
  void set_balance_check(BalanceCheck check) { balance_check_ = std::move(check); }
  // Told of every task installed here, with the basis its sender offered it on.
  using InstalledHook = std::function<void(TaskId, const BalanceBasis&)>;
  void set_installed_hook(InstalledHook hook) { installed_hook_ = std::move(hook); }
  std::size_t moving_out() const { return outgoing_.size(); }
  std::size_t moving_in() const { return incoming_.size(); }  // states on their way here
  // What a move out of here has taken lately (EWMA of the finished ones, seconds; 0 before any),
  // from its capture to the destination's install: the balancer's estimate of a move's cost.
  // The wait for the worker before the capture does not count: on a busy node a task queues
  // behind the others' computes whether it moves or not (a 4 s step would otherwise make every
  // later move look as dear as that step, and the busiest node would stop balancing).
  double move_seconds() const { return move_seconds_; }
  bool moving(TaskId task) const { return outgoing_.count(task) > 0; }
  std::vector<TaskId> moving_tasks() const;
  // Moving tasks their destination counts already: moves it has accepted, and balancing moves
  // (reserved there when they are decided) once their reservation's grace has passed.
  std::vector<TaskId> leaving_tasks() const;
  // Load of balancing moves on their way here: reserved by their sender, or accepted here and
  // not installed yet.
  double incoming_balance_load() const;
  // The task's state is on its way here: messages for it should wait, not ask the home.
  bool arriving(TaskId task) const { return incoming_.count(task) > 0; }
  // Jobs with a move in or out of here that went on since `since` (a piece of state captured,
  // the destination's answer, a chunk in) or is being installed here, as job -> {root,
  // generation}: the daemon tells their roots (JobActivity), so that a move of hundreds of MB at
  // a tenth of a core, longer than checkpoint.stall_ms, is not taken for a lost message. A move
  // whose chunks stop coming (a lost frame) counts no more, and the root's watchdog rolls the job
  // back.
  JobRoots moving_jobs(Clock::time_point since) const;

 private:
  struct Outgoing {
    MigrateCommand cmd;
    BalanceBasis basis;
    std::uint64_t epoch = 0;    // the task's move count once it arrives
    std::uint64_t attempt = 0;  // tells this move's capture events from an earlier move's
    std::uint64_t state_bytes = 0;
    bool offered = false;
    bool accepted = false;
    std::vector<Frame> early;  // chunks written before the destination accepted
    std::shared_ptr<std::atomic<bool>> cancel;
    Clock::time_point began;
    // When the capture began (the worker reached the task): the cost of the move to the job is
    // from here on; before it the task still ran its queued work here.
    Clock::time_point sized;
    Clock::time_point went_on;  // the move's last step here (moving_jobs)
  };
  struct Incoming {
    MigrationOffer offer;
    std::uint32_t from = 0;
    std::uint64_t attempt = 0;            // tells this move's install from an earlier one's
    StateAssembler assembler;             // a small state: installed once every chunk is in
    std::shared_ptr<StateStream> stream;  // a large one: loaded while its chunks arrive
    bool installing = false;              // every chunk is in: the move is no longer given up
    Clock::time_point began;              // when we accepted
    Clock::time_point went_on;            // the last chunk in, or the install begun
  };
  // States of at least this many chunks are loaded while they arrive (install_streaming).
  static constexpr std::uint32_t kStreamingChunks = 4;
  // A state this small goes right behind its offer, in order with it, without waiting for the
  // answer (one round trip less; a refused offer wastes at most this much). Larger states wait:
  // their chunks are bulk frames, which small messages overtake.
  static constexpr std::uint64_t kEagerBytes = 64u << 10;

  void start(const MigrateCommand& cmd, const BalanceBasis& basis = {});
  Outgoing* outgoing(TaskId task, std::uint64_t attempt);
  void on_sized(TaskId task, std::uint64_t attempt, std::uint64_t bytes);
  void on_piece(TaskId task, std::uint64_t attempt, std::uint32_t index, BufferPool::Ptr piece);
  void on_captured(TaskId task, std::uint64_t attempt, const Status& status);
  // `tell_destination`: a destination that may hold part of the state is told to drop it.
  void finish(TaskId task, bool ok, const std::string& reason, bool tell_destination = true);
  void report(const MigrateCommand& cmd, bool ok, const std::string& reason,
              std::uint64_t bytes = 0, double seconds = 0);
  std::optional<std::string> refusal(const MigrationOffer& offer) const;
  Result<std::shared_ptr<const JobInfo>> job_for(const MigrationOffer& offer) const;
  void install(Incoming& in);
  void installed(TaskId task, std::uint64_t attempt, Status status);
  // Forgets an incoming move; a streaming install that still waits for chunks stops.
  void drop_incoming(std::map<TaskId, Incoming>::iterator it, const std::string& reason);

  Messenger& messenger_;
  TaskHost& host_;
  MessageRouter& router_;
  LocationCache& cache_;
  ForwardingTable& pointers_;
  NodeCounters& counters_;
  Params params_;
  IsAlive is_alive_;
  FreeMemory free_memory_;
  JobEnded job_ended_;
  BalanceCheck balance_check_;
  InstalledHook installed_hook_;
  std::map<TaskId, Outgoing> outgoing_;
  double move_seconds_ = 0;
  std::uint64_t attempts_ = 0;  // moves started here, and moves accepted here
  std::map<TaskId, Incoming> incoming_;
  LoadReservations reservations_;
};

}  // namespace drift
