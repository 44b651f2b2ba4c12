// The tasks living on this node (DESIGN.md §3, §6, §7). The host owns them on the network thread
// and runs their handlers on the worker pool, one at a time per task; a handler's effects come
// back to the network thread through the EffectsSink. Messages are delivered per channel in
// order, exactly once (ChannelReceiver). Step reductions arrive as messages on a virtual channel
// from the root (sender index kRootSender, seq = step + 1), so they are ordered, deduplicated and
// forwarded like any other message. For migration a task can be frozen after its current
// handler, captured as bytes, then released (it moved) or resumed (the move failed); the
// destination installs the bytes.
#pragma once

#include <asio.hpp>

#include <functional>
#include <map>
#include <memory>
#include <span>
#include <vector>

#include "node/application.h"
#include "node/task_context.h"
#include "node/task_slot.h"
#include "protocol/messages.h"
#include "protocol/status.h"

namespace drift {

inline constexpr std::uint32_t kRootSender = 0xffffffffu;
inline constexpr std::uint32_t kReducedTag = 0xffffffffu;

// The reduction of `step` as a message to `to` on the root's virtual channel.
TaskMessage reduction_message(TaskId to, std::uint64_t step,
                              const std::shared_ptr<const std::vector<std::uint8_t>>& values);

class TaskHost {
 public:
  using EffectsSink = std::function<void(HandlerEffects&&)>;  // called on the network thread
  using CaptureDone = std::function<void(Result<std::vector<std::uint8_t>>)>;

  // Handlers that recently took at most `inline_us` microseconds run on the network thread when
  // the task has nothing queued, saving two thread hand-offs per message; 0 turns this off.
  TaskHost(asio::io_context& io, asio::thread_pool& pool, const AppRegistry& apps,
           EffectsSink sink, std::uint32_t inline_us = 0);

  // Makes the listed tasks of a job; nothing is made if the app or spec is refused.
  Status create(const CreateTasks& req);
  void start(std::uint64_t job);
  // False if the task does not live here (it may have moved). `from_node` is the node the
  // message came from; it is kept with messages held while the task is frozen.
  bool deliver(TaskMessage&& msg, std::uint32_t from_node);
  // Drops the job's tasks; handlers still running finish, their effects are ignored.
  void end(std::uint64_t job);

  // Migration, source side. freeze() holds new deliveries; capture() serializes the task after
  // its current handler; then either release() (returns the held messages) or resume().
  Status freeze(TaskId task);
  void capture(TaskId task, CaptureDone done);
  std::vector<HeldMessage> release(TaskId task);
  void resume(TaskId task);
  // Migration, destination side: recreates the task from captured bytes on a worker (a large
  // state never holds up the network thread), then adds it here and starts it; `done` runs on
  // the network thread with the outcome.
  using InstallDone = std::function<void(Status)>;
  void install(std::shared_ptr<const JobInfo> job, TaskId task, std::uint64_t epoch,
               std::shared_ptr<const std::vector<std::uint8_t>> state, InstallDone done);

  bool hosts(TaskId task) const { return find(task) != nullptr; }
  bool frozen(TaskId task) const;
  bool knows_job(std::uint64_t job) const { return jobs_.count(job) > 0; }
  std::vector<std::uint64_t> jobs() const;
  std::shared_ptr<const JobInfo> job_info(std::uint64_t job) const;
  std::uint32_t task_count() const;
  double total_load() const;
  double task_load(TaskId task) const;
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
  Result<std::shared_ptr<TaskSlot>> restore(const std::shared_ptr<const JobInfo>& job,
                                            TaskId task, std::span<const std::uint8_t> state);
  static HandlerEffects execute(TaskSlot& slot, const Handler& handler);
  bool may_run_inline(const TaskSlot& slot) const;
  void post_delivery(const std::shared_ptr<TaskSlot>& slot, TaskMessage&& msg);
  void absorb(HandlerEffects&& effects);
  std::shared_ptr<TaskSlot> find(TaskId id) const;

  asio::io_context& io_;
  asio::thread_pool& pool_;
  const AppRegistry& apps_;
  EffectsSink sink_;
  std::uint32_t inline_us_;
  bool in_inline_handler_ = false;  // no nesting: a local send runs its target on the pool
  std::map<std::uint64_t, HostedJob> jobs_;
  std::map<TaskId, double> loads_;
  double busy_seconds_ = 0;
  double work_units_ = 0;
};

}  // namespace drift
