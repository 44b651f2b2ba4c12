// The daemon as a service (part of Daemon; docs/architecture.md §12.1): READY=1 to systemd once
// joined, the log reopened on SIGHUP, and SIGTERM's clean leave — the tasks move away, the jobs'
// roots are told (NodeLeft), the jobs rooted here go to their deputies, then the daemon stops.
#include <spdlog/spdlog.h>

#include <csignal>

#include "node/config/config.h"
#include "node/daemon.h"
#include "node/service/log.h"
#include "node/service/systemd_notify.h"

namespace drift {

// SIGTERM: a clean leave. The node's tasks move to other members first (as when its owner
// reclaims it) and the jobs rooted here go to their deputies, so no job waits for the failure
// detector; then the daemon tells the members it leaves and stops. A second signal, or
// kLeaveDeadline with tasks still here, stops it at once (their jobs then recover them). SIGINT
// (Ctrl-C; driftctl local down) stops at once too, telling the members first.
void Daemon::on_signal() {
  signals_.async_wait([this](std::error_code ec, int sig) {
    if (ec || stopping_) return;
    // A task on its way out (a balancing move just begun) is still ours: leaving at once would
    // lose it, and its job would roll back as if this node had died.
    const std::size_t tasks = host_.tasks().size() + migration_.moving_out();
    const std::size_t rooted = coordinator_.active_jobs() + coordinator_.queued_jobs();
    // A job that had a task here counts this node among its own until told it left, even once
    // its tasks have all moved on: leaving without a word would look like a death to its root.
    const std::size_t joined = host_.jobs().size();
    const bool others = alive_members() >= 2;
    if (sig == SIGINT || leaving_ || (tasks == 0 && rooted == 0 && joined == 0) || !others) {
      spdlog::info("signal {}: shutting down{}", sig,
                   leaving_ ? " (second signal: not waiting for the tasks to move)"
                   : sig == SIGINT && tasks + rooted > 0
                       ? " at once: the jobs recover the tasks and the jobs rooted here"
                       : "");
      if (others) membership_.announce_leave();
      return stop();
    }
    leaving_ = true;
    leave_deadline_ = std::chrono::steady_clock::now() + kLeaveDeadline;
    for (std::uint64_t job : host_.jobs()) leaving_jobs_.insert(job);
    for (TaskId t : host_.tasks()) leaving_jobs_.insert(t.job);
    for (TaskId t : migration_.moving_tasks()) leaving_jobs_.insert(t.job);
    spdlog::info("signal {}: leaving the cluster: moving {} task(s) away and handing {} job(s) "
                 "rooted here to their deputies first (up to {} s; a second signal stops at once)",
                 sig, tasks, rooted, kLeaveDeadline.count());
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
    membership_.announce_leave();
    return stop();
  }
  if (tasks == 0 && !left_sent_) {
    // Every member learns where the tasks that left went, now: one that has not sent to them
    // since would otherwise send to this node after it stopped, and that message would be lost
    // (a stall, then a rollback).
    for (const auto& [task, pointer] : pointers_.all()) {
      for (const Member& m : table_.members()) {
        if (m.info.node_id == config_.node_id || m.info.state == MemberState::kDead) continue;
        if (pointer.dest == m.info.node_id) continue;
        send_to_node(m.info.node_id, LocationUpdate{task, pointer.dest, pointer.epoch});
      }
    }
    // The roots of the jobs it hosted learn it left them cleanly, so none rolls back.
    left_sent_ = true;
    left_acks_deadline_ = now + std::chrono::seconds(2);
    for (auto it = leaving_jobs_.begin(); it != leaving_jobs_.end();) {
      const std::uint32_t root = locations_.home(*it);
      if (root == config_.node_id) {  // its root is leaving too: handed over below
        it = leaving_jobs_.erase(it);
        continue;
      }
      send_to_node(root, NodeLeft{*it, config_.node_id});
      ++it;
    }
    // The jobs rooted here go on under their deputies now, not after the failure detector has
    // declared this node dead (they roll back to their last checkpoint there). Each deputy
    // answers NodeLeftAck once it has taken its job over.
    for (const auto& [deputy, job] : coordinator_.abandon_all("leaves the cluster")) {
      leaving_jobs_.insert(job);
      send_to_node(deputy, DeputyOrder{job, true, true});
    }
  }
  // Messages already on their way here are passed on before it stops: it waits until it has
  // forwarded nothing for a while (within the leave's deadline).
  if (counters_.messages_forwarded != leave_forwarded_) {
    leave_forwarded_ = counters_.messages_forwarded;
    leave_quiet_since_ = now;
  }
  const bool quiet = now - leave_quiet_since_ >= std::chrono::milliseconds(300) ||
                     now >= leave_deadline_;
  if (tasks == 0 && quiet && (leaving_jobs_.empty() || now >= left_acks_deadline_)) {
    spdlog::info("every task moved away{}: shutting down",
                 leaving_jobs_.empty() ? ", every job's root told" : "; a job's root did not answer");
    membership_.announce_leave();
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

// cluster.revoked_tokens as the config file says now (command-line values are not re-read).
void Daemon::reload_revoked_tokens() {
  if (config_.config_file.empty() || !tls_) return;
  const std::string file = config_.config_file;
  const char* argv[] = {"driftd", "--config", file.c_str()};
  auto parsed = parse_driftd_args(3, argv);
  if (auto* error = std::get_if<ConfigError>(&parsed)) {
    return spdlog::warn("SIGHUP: {} not re-read: {}", file, error->message);
  }
  const auto* fresh = std::get_if<NodeConfig>(&parsed);
  if (!fresh || fresh->revoked_tokens == tls_->revoked()) return;
  std::string names;
  for (const auto& n : fresh->revoked_tokens) names += (names.empty() ? "" : ", ") + n;
  tls_->set_revoked(fresh->revoked_tokens);
  spdlog::info("SIGHUP: revoked tokens now: {}", names.empty() ? "none" : names);
  transport_.close_revoked(fresh->revoked_tokens);
}

void Daemon::on_reload() {
  reload_.async_wait([this](std::error_code ec, int) {
    if (ec || stopping_) return;
    reopen_log();
    spdlog::info("SIGHUP: log file reopened");
    reload_revoked_tokens();
    on_reload();
  });
}

}  // namespace drift
