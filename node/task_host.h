// The tasks living on this node (DESIGN.md §3, §6). The host owns them on the network thread and
// runs their handlers on the worker pool, one at a time per task; a handler's effects come back
// to the network thread through the EffectsSink. Messages are delivered per channel in order,
// exactly once (ChannelReceiver).
#pragma once

#include <asio.hpp>

#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "node/application.h"
#include "node/task_context.h"
#include "node/task_slot.h"
#include "protocol/messages.h"
#include "protocol/status.h"

namespace drift {

class TaskHost {
 public:
  using EffectsSink = std::function<void(HandlerEffects&&)>;  // called on the network thread

  TaskHost(asio::io_context& io, asio::thread_pool& pool, const AppRegistry& apps,
           EffectsSink sink);

  // Makes the listed tasks of a job; nothing is made if the app or spec is refused.
  Status create(const CreateTasks& req);
  void start(std::uint64_t job);
  // False if the task does not live here.
  bool deliver(TaskMessage&& msg);
  void reduced(const ReductionResult& result);
  // Drops the job's tasks; handlers still running finish, their effects are ignored.
  void end(std::uint64_t job);

  bool knows_job(std::uint64_t job) const { return jobs_.count(job) > 0; }
  std::vector<std::uint64_t> jobs() const;
  std::shared_ptr<const JobInfo> job_info(std::uint64_t job) const;
  std::uint32_t task_count() const;
  double total_load() const;
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
  void absorb(HandlerEffects&& effects);
  TaskSlot* find(TaskId id);

  asio::io_context& io_;
  asio::thread_pool& pool_;
  const AppRegistry& apps_;
  EffectsSink sink_;
  std::map<std::uint64_t, HostedJob> jobs_;
  std::map<TaskId, double> loads_;
  double busy_seconds_ = 0;
  double work_units_ = 0;
};

}  // namespace drift
