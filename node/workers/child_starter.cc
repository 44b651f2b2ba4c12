#include "node/workers/child_starter.h"

#include <utility>

namespace drift {

asio::execution_context::id ChildStarter::id;

ChildStarter::ChildStarter(asio::execution_context& context)
    : asio::execution_context::service(context),
      io_(static_cast<asio::io_context&>(context)) {}

ChildStarter::~ChildStarter() { shutdown(); }

void ChildStarter::start(std::shared_ptr<const ChildPlan> plan, std::string executable,
                         Started started) {
  std::lock_guard lock(mutex_);
  if (stopping_) return;  // the io_context is going: nobody would hear of the child
  jobs_.push_back({std::move(plan), std::move(executable), std::move(started),
                   asio::make_work_guard(io_)});
  if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  wake_.notify_one();
}

// Services shut down before the io_context's scheduler does: a result posted while this waits
// for the thread is destroyed with the io_context, never run.
void ChildStarter::shutdown() {
  std::deque<Job> abandoned;  // destroyed outside the lock (their closures own descriptors)
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    abandoned.swap(jobs_);
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

void ChildStarter::run() {
  for (;;) {
    std::optional<Job> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (stopping_) return;
      job.emplace(std::move(jobs_.front()));
      jobs_.pop_front();
    }
    Result<pid_t> pid = start_child(*job->plan, job->executable);
    asio::post(io_, [job = std::move(*job), pid = std::move(pid)]() mutable {
      job.started(std::move(pid));
    });
  }
}

}  // namespace drift
