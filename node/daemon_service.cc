// The daemon as a service (part of Daemon; docs/architecture.md §12.1): READY=1 to systemd once
// joined, the log reopened on SIGHUP, and SIGTERM's clean leave — the tasks move away, the jobs'
// roots are told (NodeLeft), then the daemon stops.
#include <spdlog/spdlog.h>

#include "node/daemon.h"
#include "node/service/log.h"
#include "node/service/systemd_notify.h"

namespace drift {

// SIGTERM or SIGINT: a clean leave. The node's tasks move to other members first (as when its
// owner reclaims it), so no job rolls back; then the daemon stops. A second signal, or
// kLeaveDeadline with tasks still here, stops it at once (their jobs then recover them).
void Daemon::on_signal() {
  signals_.async_wait([this](std::error_code ec, int sig) {
    if (ec || stopping_) return;
    const std::size_t tasks = host_.tasks().size();
    if (leaving_ || tasks == 0 || alive_members() < 2) {
      spdlog::info("signal {}: shutting down{}", sig,
                   leaving_ ? " (second signal: not waiting for the tasks to move)" : "");
      return stop();
    }
    leaving_ = true;
    leave_deadline_ = std::chrono::steady_clock::now() + kLeaveDeadline;
    for (TaskId t : host_.tasks()) leaving_jobs_.insert(t.job);
    spdlog::info("signal {}: leaving the cluster: moving {} task(s) away first (up to {} s; a "
                 "second signal stops at once)", sig, tasks, kLeaveDeadline.count());
    notify_stopping();
    owner_.command(OwnerAction::kReclaim);
    watch_leave();
    on_signal();
  });
}

void Daemon::watch_leave() {
  // A task on its way out is still ours until its destination has installed it.
  const std::size_t tasks = host_.tasks().size() + migration_.moving_out();
  const auto now = std::chrono::steady_clock::now();
  if (tasks > 0 && now >= leave_deadline_) {
    spdlog::warn("leaving with {} task(s) still here: their jobs recover them", tasks);
    return stop();
  }
  if (tasks == 0 && !left_sent_) {
    // The roots of the jobs it hosted learn it left them cleanly, so none rolls back.
    left_sent_ = true;
    left_acks_deadline_ = now + std::chrono::seconds(2);
    for (std::uint64_t job : leaving_jobs_) send_to_node(locations_.home(job), NodeLeft{job, config_.node_id});
  }
  if (tasks == 0 && (leaving_jobs_.empty() || now >= left_acks_deadline_)) {
    spdlog::info("every task moved away{}: shutting down",
                 leaving_jobs_.empty() ? ", every job's root told" : "; a job's root did not answer");
    return stop();
  }
  ready_timer_.expires_after(std::chrono::milliseconds(100));
  ready_timer_.async_wait([this](std::error_code ec) {
    if (!ec && !stopping_) watch_leave();
  });
}

void Daemon::on_left_ack(std::uint64_t job) {
  if (!leaving_ || !leaving_jobs_.erase(job) || !leaving_jobs_.empty()) return;
  asio::post(io_, [this] {
    if (!stopping_) watch_leave();
  });
}

std::size_t Daemon::alive_members() const {
  std::size_t alive = 0;
  for (const Member& m : table_.members()) alive += m.info.state == MemberState::kAlive;
  return alive;
}

void Daemon::watch_readiness() {
  const std::size_t alive = alive_members();
  const bool waited = std::chrono::steady_clock::now() - started_ > std::chrono::seconds(10);
  if (config_.seeds.empty() || alive > 1 || waited) {
    const std::string status = "node " + std::to_string(config_.node_id) + " '" + config_.name +
                               "', " + std::to_string(alive) + " member(s) alive" +
                               (alive > 1 || config_.seeds.empty() ? "" : "; no seed answered yet");
    notify_ready(status);
    spdlog::debug("ready: {}", status);
    return;
  }
  ready_timer_.expires_after(std::chrono::milliseconds(100));
  ready_timer_.async_wait([this](std::error_code ec) {
    if (!ec && !stopping_) watch_readiness();
  });
}

void Daemon::on_reload() {
  reload_.async_wait([this](std::error_code ec, int) {
    if (ec || stopping_) return;
    reopen_log();
    spdlog::info("SIGHUP: log file reopened");
    on_reload();
  });
}

}  // namespace drift
