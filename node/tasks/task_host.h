// The tasks living on this node (docs/architecture.md §11.3). Their code runs in
// one worker process per job (node/workers/), started from the job's executable for this node's
// architecture; the host keeps what the daemon needs to know of each task — where it is, its
// move count, its load and grain, whether it is frozen — and talks to the workers. Messages are
// delivered to a task's worker unless the task is frozen for a move or the owner paused the node:
// then they wait here. A frozen task's state is captured by its worker in pieces; an arriving
// task is installed into its job's worker (started if need be) from the chunks it came in. A
// rollback replaces the job's worker with a fresh one of the new generation, so nothing of the
// old one — a handler that hangs, effects still on their way — can reach the new. A worker that
// dies takes its job's tasks here with it: `lost` says so, and the daemon lives on. Network
// thread only.
#pragma once

#include <asio.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "migration/buffer_pool.h"
#include "migration/state_stream.h"
#include "migration/state_transfer.h"
#include "node/machine/emulation.h"
#include "node/tasks/handler_effects.h"
#include "node/tasks/job_info.h"
#include "node/workers/worker_process.h"
#include "protocol/messages.h"
#include "protocol/root_channel.h"

namespace drift {

// A message that arrived while its task was frozen, with the node it came from.
struct HeldMessage {
  TaskMessage msg;
  std::uint32_t from_node = 0;
};

class TaskHost {
 public:
  using Done = std::function<void(Status)>;
  using ExecutableReady = std::function<void(Result<std::string> path)>;
  struct Hooks {
    std::function<void(HandlerEffects&&)> effects;
    // A message a task here sent that its worker could not deliver itself.
    std::function<void(TaskMessage&&)> route;
    // The job's worker here died: its tasks here (`tasks`, of `job`'s generation) are gone.
    // `why` names how, with the end of its stderr.
    std::function<void(const JobInfo& job, const std::vector<std::uint32_t>& tasks,
                       const std::string& why)>
        lost;
    // Where this node's executable for the job is (found, or fetched, then `ready` is called).
    std::function<void(const JobInfo& job, ExecutableReady ready)> executable;
  };
  struct Params {
    std::uint32_t threads = 1;        // handler threads in each worker
    std::uint32_t inline_us = 0;      // handlers this short run on the worker's I/O thread
    std::uint32_t max_frame = 8u << 20;  // largest frame to and from a worker
    std::uint32_t piece_bytes = 1u << 20;
    std::uint64_t max_state = 0;      // largest checkpoint a worker may report; 0: no bound
    std::vector<std::string> launcher;
    std::chrono::milliseconds stop_grace{2000};
    std::chrono::milliseconds ready_within{30000};  // a worker's first frame, or it is ended
    const Emulator* emulator = nullptr;  // its settings go to the workers
    std::uint32_t node = 0;
    // A worker this far behind in reading what the daemon sends it is ended (it stopped
    // reading: hung in a handler, or hostile), rather than let it fill the daemon's memory.
    std::uint64_t max_unread = 1ull << 30;
  };

  TaskHost(asio::io_context& io, const Containment& containment, Params params, Hooks hooks);
  ~TaskHost();

  // Makes the listed tasks of a job in its worker; `done` says whether the worker made them.
  void create(const CreateTasks& req, Done done);
  void start(std::uint64_t job);
  // False if the task does not live here (it may have moved). `from_node` is the node the
  // message came from; it is kept with messages held while the task is frozen. A message of
  // another generation than the task's is dropped (true: it was dealt with).
  bool deliver(TaskMessage&& msg, std::uint32_t from_node);
  // Recovery: drops the job's tasks here and its worker, and puts in their place the tasks of
  // `info` (its new generation) listed in `tasks`, each loaded from its saved state, or made
  // afresh when the state is null, in a new worker. They start with start(job). A state that
  // does not load is reported later, as that task's failure.
  using SavedState = std::shared_ptr<const std::vector<std::uint8_t>>;
  Status rollback(std::shared_ptr<const JobInfo> info,
                  const std::vector<std::pair<std::uint32_t, SavedState>>& tasks);
  // The job's generation here (0 if unknown).
  std::uint32_t generation(std::uint64_t job) const;
  // Drops the job's tasks and stops its worker.
  void end(std::uint64_t job);
  // Stops every worker at once (the daemon is stopping, or fenced).
  void end_all();

  // Migration, source side. freeze() holds new deliveries; capture() has the worker write the
  // task's state after its current handler; then either release() (returns the held messages)
  // or resume(). The sink's calls run in order: `sized`, then `piece` for each piece, then
  // `done` (which may come at any point with an error, and alone if the task is not frozen).
  struct CaptureSink {
    std::uint32_t piece_bytes = 0;  // state bytes per piece
    std::size_t piece_front = 0;    // free bytes before them in each buffer (a frame's header)
    std::shared_ptr<const std::atomic<bool>> cancel;
    std::function<void(std::uint64_t bytes)> sized;
    std::function<void(std::uint32_t index, BufferPool::Ptr piece)> piece;
    std::function<void(Status)> done;
  };
  Status freeze(TaskId task);
  void capture(TaskId task, CaptureSink sink);
  std::vector<HeldMessage> release(TaskId task);
  void resume(TaskId task);
  // Owner suspend: every task's new deliveries are held, as freeze() does for one task, so the
  // tasks stop after the handlers already queued and stay in memory; unpause() delivers what
  // was held to every task that is not frozen for a migration.
  void pause();
  void unpause();
  bool paused() const { return paused_; }
  // Migration, destination side: the task joins its job's worker here (started if need be),
  // loaded from its state, and starts; `done` says how it went. `committed`: the task lives
  // here from this call on (the source let it go before the load): messages for it go to the
  // worker, which holds them until the state is loaded, and a load that fails then is the
  // job's loss here like a worker's death (`lost`), no longer the move's.
  using InstallDone = std::function<void(Status)>;
  void install(std::shared_ptr<const JobInfo> job, TaskId task, std::uint64_t epoch,
               std::shared_ptr<const StatePieces> state, InstallDone done,
               bool committed = false);
  // The same for a large state whose chunks are still arriving: each is handed on to the worker
  // as it comes. A failed `state` ends it with the reason.
  void install_streaming(std::shared_ptr<const JobInfo> job, TaskId task, std::uint64_t epoch,
                         std::shared_ptr<StateStream> state, InstallDone done);

  bool hosts(TaskId task) const { return find(task) != nullptr; }
  // The job's worker here is up: it made or loaded a task (it started, took its setup, and
  // loads what it is sent), and has not been replaced since.
  bool worker_up(std::uint64_t job) const;
  bool frozen(TaskId task) const;
  bool loading(TaskId task) const;
  bool knows_job(std::uint64_t job) const { return jobs_.count(job) > 0; }
  // The largest task state this node takes (a checkpoint a worker reports, a copy a peer sends).
  std::uint64_t max_state() const { return params_.max_state ? params_.max_state : std::uint64_t{1} << 36; }
  std::vector<std::uint64_t> jobs() const;
  std::shared_ptr<const JobInfo> job_info(std::uint64_t job) const;
  std::uint32_t task_count() const;
  double total_load() const;
  double task_load(TaskId task) const;
  TaskGrain grain(TaskId task) const;
  std::uint64_t epoch(TaskId task) const;
  std::vector<TaskId> tasks() const;
  // Worker processes running now (one per job that has had tasks here), and their pids.
  std::size_t worker_count() const;
  std::vector<int> worker_pids() const;
  // Jobs whose worker sent a piece of a task's state (a checkpoint, a capture) since `since`, as
  // job -> {root, generation}: a checkpoint of hundreds of MB taken in at a tenth of a core
  // holds the step's report behind it for longer than checkpoint.stall_ms, and that is no lost
  // message (the daemon tells the roots: JobActivity). Only while a state is still coming in:
  // counted after its last piece too, a stopped worker's stall was seen a whole
  // checkpoint.stall_ms late (a fresh user's SIGSTOP: a rollback after 60 s, "no progress for
  // 30.7 s").
  JobRoots jobs_sending_state(std::chrono::steady_clock::time_point since) const;
  // Busy seconds and work units measured in ctx.compute since start.
  double busy_seconds() const { return busy_seconds_; }
  double work_units() const { return work_units_; }
  // Task state its workers sent since start (checkpoints, captures for moves), bytes.
  std::uint64_t state_bytes_from_workers() const { return state_bytes_from_workers_; }

 private:
  struct HostedTask {
    std::uint64_t epoch = 0;  // how many times the task has moved
    bool running = false;     // started: the job started here, or it moved in running
    bool frozen = false;
    bool finished = false;
    bool loading = false;     // committed here, its state still loading in the worker
    std::vector<HeldMessage> held;
    double load = 0;
    TaskGrain grain;
  };
  struct Capture {
    std::uint64_t attempt = 0;
    CaptureSink sink;
    std::uint32_t pieces = 0;
    bool sized = false;
    std::uint64_t total = 0;     // as the worker announced it
    std::uint64_t received = 0;  // state bytes of its pieces so far
  };
  struct Installing {
    std::uint64_t epoch = 0;
    InstallDone done;  // null: a rollback's restore (the task is in `tasks` already)
    bool committed = false;  // in `tasks` already, `loading`: a failed load loses the job here
    std::shared_ptr<StateStream> stream;
    std::thread pump;  // hands a streaming install's chunks on as they arrive
  };
  struct HostedJob {
    std::shared_ptr<const JobInfo> info;
    std::map<std::uint32_t, HostedTask> tasks;
    bool start_sent = false;  // WorkerStart: its tasks run
    std::shared_ptr<WorkerProcess> worker;
    bool launching = false;             // its executable is being found
    bool worker_up = false;             // `worker` made or loaded a task
    std::vector<std::pair<Frame, bool>> unsent;  // frames for the worker before it runs
    std::vector<std::pair<std::vector<std::uint32_t>, Done>> creating;
    std::map<std::uint32_t, Installing> installing;
    std::map<std::uint32_t, Capture> captures;
    // A task's checkpoint coming in from the worker piece by piece: the size its first piece
    // announced (every later piece announces the same), and the bytes so far.
    struct IncomingCheckpoint {
      std::uint64_t total = 0;
      std::vector<std::uint8_t> bytes;
    };
    std::map<std::uint32_t, IncomingCheckpoint> checkpoint_bytes;
    std::uint64_t checkpoint_total = 0;  // their announced sizes, at most max_state()

    void drop_checkpoint(std::uint32_t index) {
      if (auto it = checkpoint_bytes.find(index); it != checkpoint_bytes.end()) {
        checkpoint_total -= it->second.total;
        checkpoint_bytes.erase(it);
      }
    }
    std::chrono::steady_clock::time_point state_went_on{};  // its last piece of state in
    std::uint64_t attempts = 0;
    JobUids::Lease uid;  // its workers' user id while it is hosted here (job_uids.h), if any
  };

  HostedJob& job_entry(std::shared_ptr<const JobInfo> info);
  void launch(std::uint64_t job);
  void on_executable(std::uint64_t job, std::uint32_t generation, Result<std::string> path);
  void send(HostedJob& hosted, Frame frame, bool bulk = false);
  void send(HostedJob& hosted, const WorkerMessage& msg);
  void send_message(HostedJob& hosted, TaskMessage&& msg);
  void send_state(HostedJob& hosted, std::uint32_t index, std::shared_ptr<const void> owner,
                  std::span<const std::uint8_t> bytes);
  void begin_install(std::shared_ptr<const JobInfo> job, TaskId task, std::uint64_t epoch,
                     std::uint64_t total, InstallDone done, bool committed = false);

  // Frames from a worker (task_host_worker.cc).
  void on_worker_message(std::uint64_t job, const WorkerProcess* worker, WorkerMessage&& msg);
  Status dispatch_worker_message(HostedJob& hosted, WorkerMessage&& msg);
  Status on_sent(HostedJob& hosted, TaskMessage&& msg);
  Status on_effects(HostedJob& hosted, WorkerEffects&& report);
  Status on_state_bytes(HostedJob& hosted, WorkerStateBytes&& piece);
  Status on_created(HostedJob& hosted, const WorkerCreated& created);
  Status on_installed(HostedJob& hosted, const WorkerInstalled& installed);
  Status on_committed_load(HostedJob& hosted, TaskId id, double load, InstallDone done,
                           const WorkerInstalled& installed);
  Status on_capture_sized(HostedJob& hosted, const WorkerCaptureSized& sized);
  Status on_capture_done(HostedJob& hosted, const WorkerCaptureDone& done);
  void on_worker_gone(std::uint64_t job, const WorkerProcess* worker,
                      const WorkerProcess::Ending& ending);
  // The job's tasks here are gone with its worker (it died, or never started): `lost` says so
  // to the daemon, and the job is forgotten here (a rollback or a move starts it afresh).
  void lose(std::uint64_t job, const std::string& why);
  // Everything still waiting on the job's worker learns it is gone.
  void fail_pending(HostedJob& hosted, const std::string& why);
  // `kill`: at once (a rollback: what it runs is abandoned), else after a grace time.
  void stop_worker(HostedJob& hosted, bool kill);
  void drop(std::uint64_t job, bool kill);

  const HostedTask* find(TaskId id) const;
  HostedTask* find(TaskId id);
  HostedJob* find_job(std::uint64_t job);

  asio::io_context& io_;
  const Containment& containment_;
  Params params_;
  Hooks hooks_;
  bool paused_ = false;
  std::optional<JobUids> job_uids_;  // before jobs_: their leases go back to it
  std::map<std::uint64_t, HostedJob> jobs_;
  // The uid of an ended job's worker still stopping (stop_grace): not given to another job
  // before that worker is gone.
  std::map<const WorkerProcess*, JobUids::Lease> stopping_uids_;
  // Workers told to stop (ended or rolled-back jobs), kept until they are gone.
  std::map<const WorkerProcess*, std::shared_ptr<WorkerProcess>> stopping_;
  std::shared_ptr<bool> alive_;
  double busy_seconds_ = 0;
  double work_units_ = 0;
  std::uint64_t state_bytes_from_workers_ = 0;
  std::uint64_t launches_ = 0;  // names the workers' memory cgroups
};

}  // namespace drift
