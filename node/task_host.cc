#include "node/task_host.h"

#include <spdlog/spdlog.h>

#include <exception>

namespace drift {

TaskHost::TaskHost(asio::io_context& io, asio::thread_pool& pool, const AppRegistry& apps,
                   EffectsSink sink)
    : io_(io), pool_(pool), apps_(apps), sink_(std::move(sink)) {}

Status TaskHost::create(const CreateTasks& req) {
  if (jobs_.count(req.job)) return Status::error("job " + std::to_string(req.job) + " exists");
  const Application* app = apps_.find(req.spec.app);
  if (!app) return Status::error("unknown application '" + req.spec.app + "'");
  JobSpec spec = req.spec;
  if (auto st = app->validate(spec); !st) return st;
  auto info = std::make_shared<JobInfo>();
  info->id = req.job;
  info->root = req.root;
  info->spec = std::move(spec);
  info->app = app;
  HostedJob hosted;
  hosted.info = info;
  for (std::uint32_t index : req.indices) {
    if (index >= info->spec.tasks) {
      return Status::error("task index " + std::to_string(index) + " outside the job's " +
                           std::to_string(info->spec.tasks) + " tasks");
    }
    TaskId id{req.job, index};
    auto task = app->create_task(info->spec, index);
    if (!task) {
      return Status::error(req.spec.app + " made no task for index " + std::to_string(index));
    }
    loads_[id] = task->load();
    hosted.tasks.emplace(index, std::make_shared<TaskSlot>(id, info, std::move(task), pool_));
  }
  jobs_.emplace(req.job, std::move(hosted));
  return Status::ok();
}

void TaskHost::start(std::uint64_t job) {
  auto it = jobs_.find(job);
  if (it == jobs_.end() || it->second.started) return;
  it->second.started = true;
  for (auto& [index, slot] : it->second.tasks) {
    run(slot, [](TaskSlot& s, TaskContext& ctx) { s.task->start(ctx); });
  }
}

bool TaskHost::deliver(TaskMessage&& msg) {
  auto it = jobs_.find(msg.to.job);
  if (it == jobs_.end()) return false;
  auto t = it->second.tasks.find(msg.to.index);
  if (t == it->second.tasks.end()) return false;
  auto shared = std::make_shared<TaskMessage>(std::move(msg));
  run(t->second, [shared](TaskSlot& s, TaskContext& ctx) {
    for (auto& m : s.receiver.accept(std::move(*shared))) {
      if (s.finished) break;
      s.task->receive(ctx, Message{m.from, m.tag, std::move(m.payload)});
    }
  });
  return true;
}

void TaskHost::reduced(const ReductionResult& result) {
  auto it = jobs_.find(result.job);
  if (it == jobs_.end()) return;
  auto shared = std::make_shared<const ReductionResult>(result);
  for (auto& [index, slot] : it->second.tasks) {
    run(slot, [shared](TaskSlot& s, TaskContext& ctx) {
      s.task->reduced(ctx, shared->step, shared->values);
    });
  }
}

void TaskHost::end(std::uint64_t job) {
  auto it = jobs_.find(job);
  if (it == jobs_.end()) return;
  for (auto& [index, slot] : it->second.tasks) {
    slot->stopped = true;
    loads_.erase(slot->id);
  }
  jobs_.erase(it);
}

// Runs handler on the task's strand; its effects return to the network thread in one batch.
void TaskHost::run(const std::shared_ptr<TaskSlot>& slot, Handler handler) {
  asio::post(slot->strand, [this, slot, handler = std::move(handler)] {
    if (slot->stopped || slot->finished) return;
    TaskContext ctx(*slot);
    try {
      handler(*slot, ctx);
    } catch (const std::exception& e) {
      ctx.effects().error = e.what();
    } catch (...) {
      ctx.effects().error = "unknown exception";
    }
    if (ctx.effects().finished || ctx.effects().error) slot->finished = true;
    ctx.effects().load = slot->task->load();
    asio::post(io_, [this, effects = std::move(ctx.effects())]() mutable {
      absorb(std::move(effects));
    });
  });
}

void TaskHost::absorb(HandlerEffects&& effects) {
  auto it = jobs_.find(effects.task.job);
  if (it == jobs_.end()) return;  // the job ended while the handler ran
  loads_[effects.task] = effects.load;
  busy_seconds_ += effects.busy_seconds;
  work_units_ += effects.work_units;
  sink_(std::move(effects));
}

std::vector<std::uint64_t> TaskHost::jobs() const {
  std::vector<std::uint64_t> ids;
  for (const auto& [id, job] : jobs_) ids.push_back(id);
  return ids;
}

std::shared_ptr<const JobInfo> TaskHost::job_info(std::uint64_t job) const {
  auto it = jobs_.find(job);
  return it == jobs_.end() ? nullptr : it->second.info;
}

std::uint32_t TaskHost::task_count() const {
  return static_cast<std::uint32_t>(loads_.size());
}

double TaskHost::total_load() const {
  double sum = 0;
  for (const auto& [id, load] : loads_) sum += load;
  return sum;
}

}  // namespace drift
