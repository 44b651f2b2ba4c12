// Starting contained children off the caller's thread. start_child (child_start.h) holds its
// caller until the child runs its executable — vfork suspends the calling thread, and the child
// lowers its priority (the guests' idle CPU cgroup, nice, SCHED_IDLE) before it execs — so on a
// PC whose owner keeps every core busy the starved child held the daemon's network thread for
// seconds (10.7 s for one job's validation in the soak; a worker's start as long), and with it
// every message, reduction and answer of the node. The daemon therefore starts its children on a
// thread of its own, one per io_context (an Asio service: made on first use, its thread joined
// when the io_context goes), one child at a time; what start_child returned comes back as a
// handler on the io_context. The thread lives as long as the io_context: a child's parent-death
// signal (PR_SET_PDEATHSIG) follows the thread that started it, so the workers still die with
// their daemon. At shutdown, starts still queued are dropped (their descriptors with them).
#pragma once

#include <asio.hpp>
#include <sys/types.h>

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <drift/status.h>

#include "node/workers/child_start.h"

namespace drift {

class ChildStarter : public asio::execution_context::service {
 public:
  using Started = std::function<void(Result<pid_t>)>;
  static asio::execution_context::id id;

  // `context` must be an asio::io_context (use_service<ChildStarter>(io)).
  explicit ChildStarter(asio::execution_context& context);
  ~ChildStarter() override;

  // Runs start_child(*plan, executable) on the starter thread; `started` then runs on the
  // io_context. The plan (and every descriptor it names) must stay as it is until then.
  void start(std::shared_ptr<const ChildPlan> plan, std::string executable, Started started);

 private:
  struct Job {
    std::shared_ptr<const ChildPlan> plan;
    std::string executable;
    Started started;
    // The io_context has work until `started` ran (a driftctl's own io_context runs only
    // for its query).
    std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work;
  };
  void shutdown() override;
  void run();

  asio::io_context& io_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> jobs_;
  bool stopping_ = false;
  std::thread thread_;  // started with the first job
};

// ChildStarter of `io`.
inline void start_child_async(asio::io_context& io, std::shared_ptr<const ChildPlan> plan,
                              std::string executable, ChildStarter::Started started) {
  asio::use_service<ChildStarter>(io).start(std::move(plan), std::move(executable),
                                            std::move(started));
}

}  // namespace drift
