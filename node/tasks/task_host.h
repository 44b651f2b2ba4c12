// The tasks living on this node (DESIGN.md §3, §6, §7). The host owns them on the network thread
// and runs their handlers on the worker pool, one at a time per task; a handler's effects come
// back to the network thread through the EffectsSink. Messages are delivered per channel in
// order, exactly once (ChannelReceiver). Step reductions arrive as messages on a virtual channel
// from the root (sender index kRootSender, seq = step + 1), so they are ordered, deduplicated and
// forwarded like any other message. For migration a task can be frozen after its current
// handler, captured as bytes, then released (it moved) or resumed (the move failed); the
// destination installs the bytes. A reduction marked as a checkpoint makes the task save its
// state just before taking it (DESIGN.md §9); a rollback replaces the job's tasks here with ones
// restored from saved states, and from then on only messages of the new generation reach them.
#pragma once

#include <asio.hpp>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <thread>
#include <vector>

#include "migration/buffer_pool.h"
#include "migration/state_stream.h"
#include "migration/state_transfer.h"
#include "node/tasks/app_registry.h"
#include "node/tasks/task_context.h"
#include "node/tasks/task_slot.h"
#include "protocol/messages.h"
#include <drift/status.h>

namespace drift {

inline constexpr std::uint32_t kRootSender = 0xffffffffu;
inline constexpr std::uint32_t kReducedTag = 0xffffffffu;
inline constexpr std::uint32_t kCheckpointTag = 0xfffffffeu;  // a reduction to checkpoint before

// What a reduction message to a task carries: the combined values and the job's changes of
// decomposition that come with them (Task::regrain).
struct ReducedPayload {
  std::vector<double> values;
  std::vector<GrainChange> changes;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(values, changes);
  }
};

// The reduction of `step` as a message to `to` on the root's virtual channel.
TaskMessage reduction_message(TaskId to, std::uint64_t step,
                              const std::shared_ptr<const std::vector<std::uint8_t>>& values,
                              std::uint32_t generation = 0, bool checkpoint = false);

class TaskHost {
 public:
  using EffectsSink = std::function<void(HandlerEffects&&)>;  // called on the network thread

  // Handlers that recently took at most `inline_us` microseconds run on the network thread when
  // the task has nothing queued, saving two thread hand-offs per message; 0 turns this off.
  // `emulator` (null = a real machine; must outlive the host) is handed to every handler's
  // context, which stretches ctx.compute to the emulated speed.
  TaskHost(asio::io_context& io, asio::thread_pool& pool, const AppRegistry& apps, EffectsSink sink,
           std::uint32_t inline_us = 0, const Emulator* emulator = nullptr);

  // Makes the listed tasks of a job; nothing is made if the app or spec is refused.
  Status create(const CreateTasks& req);
  void start(std::uint64_t job);
  // False if the task does not live here (it may have moved). `from_node` is the node the
  // message came from; it is kept with messages held while the task is frozen. A message of
  // another generation than the task's is dropped (true: it was dealt with).
  bool deliver(TaskMessage&& msg, std::uint32_t from_node);
  // Recovery: drops the job's tasks here (handlers still running finish, their effects are
  // ignored) and puts in their place the tasks of `info` (its new generation) listed in
  // `tasks`, each loaded from its saved state, or made afresh when the state is null. They
  // start with start(job). Nothing changes if one does not load.
  using SavedState = std::shared_ptr<const std::vector<std::uint8_t>>;
  Status rollback(std::shared_ptr<const JobInfo> info,
                  const std::vector<std::pair<std::uint32_t, SavedState>>& tasks);
  // The job's generation here (0 if unknown).
  std::uint32_t generation(std::uint64_t job) const;
  // Drops the job's tasks; handlers still running finish, their effects are ignored.
  void end(std::uint64_t job);

  // Migration, source side. freeze() holds new deliveries; capture() serializes the task after
  // its current handler; then either release() (returns the held messages) or resume().
  // A capture runs on a worker. A first pass counts the state's bytes, so the destination can be
  // asked before the bytes exist; the second cuts them into pooled pieces and hands each over as
  // soon as it is full, so the network sends piece 1 while piece 2 is written. The sink's calls
  // run on the network thread, in order: `sized`, then `piece` for each piece, then `done`
  // (which may come at any point with an error, and alone if the task is not frozen here).
  // Setting `*cancel` stops the writing at the next piece.
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
  // Owner suspend (DESIGN.md §9): pause() holds every task's new deliveries, as freeze() does
  // for one task, so the tasks stop after the handlers already queued and stay in memory;
  // unpause() delivers what was held to every task that is not frozen for a migration. A task
  // frozen while paused keeps holding when its move fails (resume()); one that moves away takes
  // its held messages with it (release()).
  void pause() { paused_ = true; }
  void unpause();
  bool paused() const { return paused_; }
  // Migration, destination side: recreates the task on a worker from its state, read straight
  // from the chunks it arrived in (a large state never holds up the network thread), then adds
  // it here and starts it; `done` runs on the network thread with the outcome.
  using InstallDone = std::function<void(Status)>;
  void install(std::shared_ptr<const JobInfo> job, TaskId task, std::uint64_t epoch,
               std::shared_ptr<const StatePieces> state, InstallDone done);
  // The same for a large state whose chunks are still arriving: a thread of its own (it mostly
  // waits for the network, so it would only block a worker) loads the task from `state` as the
  // chunks come, so loading overlaps the transfer. A failed `state` ends it with the reason.
  void install_streaming(std::shared_ptr<const JobInfo> job, TaskId task, std::uint64_t epoch,
                         std::shared_ptr<StateStream> state, InstallDone done);
  // Ends the streaming installs still waiting for chunks and joins their threads; a task loaded
  // for an install that did not finish is dropped here, while the worker pool still exists.
  ~TaskHost();

  bool hosts(TaskId task) const { return find(task) != nullptr; }
  bool frozen(TaskId task) const;
  bool knows_job(std::uint64_t job) const { return jobs_.count(job) > 0; }
  std::vector<std::uint64_t> jobs() const;
  std::shared_ptr<const JobInfo> job_info(std::uint64_t job) const;
  std::uint32_t task_count() const;
  double total_load() const;
  double task_load(TaskId task) const;
  TaskGrain grain(TaskId task) const;
  std::uint64_t epoch(TaskId task) const;
  std::vector<TaskId> tasks() const;
  // Busy seconds and work units measured in ctx.compute since start.
  double busy_seconds() const { return busy_seconds_; }
  double work_units() const { return work_units_; }

 private:
  struct HostedJob {
    std::shared_ptr<const JobInfo> info;
    std::map<std::uint32_t, std::shared_ptr<TaskSlot>> tasks;
    bool started = false;
  };
  using Handler = std::function<void(TaskSlot&, TaskContext&)>;

  void run(const std::shared_ptr<TaskSlot>& slot, Handler handler);
  using Loaded = std::optional<Result<std::shared_ptr<TaskSlot>>>;
  // An install whose task is being loaded. The loading thread writes `loaded` and then posts
  // on_loaded(id), which takes it from here: so a loaded task never waits in a handler queued on
  // the network thread's io_context (which may be stopped, and outlives the worker pool).
  struct PendingInstall {
    std::shared_ptr<const JobInfo> job;
    TaskId task;
    std::uint64_t epoch = 0;
    InstallDone done;
    std::shared_ptr<Loaded> loaded;
    std::shared_ptr<StateStream> stream;  // a streaming install's, with its own thread
    std::thread thread;
  };

  // `input`: what BoundedInputArchive reads the state from (the pieces, or a StateStream).
  template <class Input>
  Result<std::shared_ptr<TaskSlot>> restore(const std::shared_ptr<const JobInfo>& job, TaskId task,
                                            Input&& input);
  std::uint64_t begin_install(std::shared_ptr<const JobInfo> job, TaskId task, std::uint64_t epoch,
                              InstallDone done);
  void on_loaded(std::uint64_t id);
  Status write_state(TaskSlot& slot, const std::shared_ptr<CaptureSink>& sink);
  static std::shared_ptr<const std::vector<std::uint8_t>> save(TaskSlot& slot);
  static HandlerEffects execute(TaskSlot& slot, const Handler& handler, const Emulator* emulator);
  bool may_run_inline(const TaskSlot& slot) const;
  void post_delivery(const std::shared_ptr<TaskSlot>& slot, TaskMessage&& msg);
  void absorb(HandlerEffects&& effects);
  std::shared_ptr<TaskSlot> find(TaskId id) const;

  asio::io_context& io_;
  asio::thread_pool& pool_;
  const AppRegistry& apps_;
  EffectsSink sink_;
  std::uint32_t inline_us_;
  const Emulator* emulator_;
  bool in_inline_handler_ = false;  // no nesting: a local send runs its target on the pool
  bool paused_ = false;             // owner suspend: every task holds its deliveries
  std::map<std::uint64_t, HostedJob> jobs_;
  std::map<TaskId, double> loads_;
  std::map<TaskId, TaskGrain> grains_;
  std::map<std::uint64_t, PendingInstall> installs_;  // by number
  std::uint64_t installs_made_ = 0;
  double busy_seconds_ = 0;
  double work_units_ = 0;
};

}  // namespace drift
