// The scenario's actions on real processes and networks (fault_injector.h).
#include "ctl/fault_injector.h"

#include <signal.h>

#include <algorithm>

#include "ctl/client_connection.h"
#include "ctl/migration_client.h"

namespace drift::ctl {

namespace {

constexpr auto kHookTimeout = std::chrono::milliseconds(2000);

std::vector<int> rest_of(const std::vector<int>& side, int nodes) {
  std::vector<int> rest;
  for (int k = 1; k <= nodes; ++k) {
    if (std::find(side.begin(), side.end(), k) == side.end()) rest.push_back(k);
  }
  return rest;
}

}  // namespace

FaultInjector::FaultInjector(LocalCluster& cluster, FaultNetwork* network, CpuQuotas* quotas,
                             std::uint64_t seed)
    : cluster_(cluster), network_(network), quotas_(quotas), rng_(seed) {}

FaultInjector::~FaultInjector() { moves(); }

std::vector<std::string> FaultInjector::moves() {
  for (auto& t : movers_) t.join();
  movers_.clear();
  std::lock_guard lock(moves_mutex_);
  return moves_;
}

// Asks the task's host through node `to` (any daemon routes it) and waits for the report.
Status FaultInjector::migrate(std::uint64_t job_id, std::uint32_t task, int to, double now_s) {
  if (job_id == 0) return Status::error("migrate: no job is running");
  auto connect = cluster_.connect_options(to);
  if (!connect) return connect.status();
  std::size_t index = 0;
  {
    std::lock_guard lock(moves_mutex_);
    index = moves_.size();
    moves_.emplace_back();
  }
  const MigrateRequest request{TaskId{job_id, task}, static_cast<std::uint32_t>(to)};
  movers_.emplace_back([this, request, connect = *connect, index, now_s] {
    const auto started = Clock::now();
    auto connection = ClientConnection::open(connect);
    auto report = connection ? request_migration(**connection, request,
                                                 started + std::chrono::minutes(5))
                             : Result<MigrationReport>(connection.status());
    const double took = std::chrono::duration<double>(Clock::now() - started).count();
    char line[160];
    std::snprintf(line, sizeof line, "at %.1f s, task %u to node %u: ", now_s,
                  request.task.index, request.dest);
    std::string text = line;
    if (!report) text += "not done: " + report.error();
    else if (!report->ok) text += "refused: " + report->reason;
    else text += "moved in " + std::to_string(took).substr(0, 5) + " s";
    std::lock_guard lock(moves_mutex_);
    moves_[index] = text;
  });
  return Status::ok();
}

void FaultInjector::release_all() {
  for (int k : std::set<int>(stopped_)) signal(k, SIGCONT);
  stopped_.clear();
  if (network_ && !cut_.empty()) network_->heal();
  cut_.clear();
  if (drop_ > 0 || duplicate_ > 0 || delay_ms_ > 0) set_frames(0, 0, 0);
}

bool FaultInjector::healthy(int k) const {
  return !killed_.count(k) && !stopped_.count(k) && !cut_.count(k);
}

std::set<int> FaultInjector::unhealthy() const {
  std::set<int> out(killed_);
  out.insert(stopped_.begin(), stopped_.end());
  out.insert(cut_.begin(), cut_.end());
  return out;
}

Status FaultInjector::pick(const NodeRef& ref, int root, int& out) {
  if (ref.kind == NodeRef::Kind::kNode) return out = ref.node, Status::ok();
  if (ref.kind == NodeRef::Kind::kRoot) {
    if (root <= 0) return Status::error("root: no job is running");
    return out = root, Status::ok();
  }
  std::vector<int> choices;
  for (int k = 1; k <= cluster_.nodes(); ++k) {
    if (healthy(k) && !(ref.kind == NodeRef::Kind::kWorker && k == root)) choices.push_back(k);
  }
  // Never take the last healthy node: the cluster would have no survivor to detect it.
  if (choices.empty() || static_cast<int>(cluster_.nodes() - unhealthy().size()) < 2) {
    return Status::error(ref.text() + ": no healthy node to pick (would leave no survivor)");
  }
  out = choices[std::uniform_int_distribution<std::size_t>(0, choices.size() - 1)(rng_)];
  return Status::ok();
}

Status FaultInjector::signal(int k, int sig) {
  if (killed_.count(k)) return Status::error("node " + std::to_string(k) + " is not running");
  return cluster_.kill(k, sig);
}

Status FaultInjector::set_frames(double drop, double duplicate, double delay_ms) {
  std::string errors;
  for (int k = 1; k <= cluster_.nodes(); ++k) {
    if (killed_.count(k) || stopped_.count(k)) continue;
    auto connect = cluster_.connect_options(k);
    if (!connect) return connect.status();
    connect->connect_timeout = connect->handshake_timeout = kHookTimeout;
    auto connection = ClientConnection::open(*connect);
    Status s = connection ? (*connection)->send(FrameFaultsRequest{drop, duplicate, delay_ms})
                          : connection.status();
    if (s) {
      auto reply = (*connection)->receive(Clock::now() + kHookTimeout);
      const auto* r = reply ? std::get_if<FrameFaultsReply>(&*reply) : nullptr;
      if (!r) s = Status::error(reply ? "unexpected answer" : reply.error());
      else if (!r->applied) s = Status::error(r->text);
    }
    if (!s) errors += (errors.empty() ? "" : "; ") + ("node " + std::to_string(k) + ": " + s.message());
  }
  drop_ = drop, duplicate_ = duplicate, delay_ms_ = delay_ms;
  return errors.empty() ? Status::ok() : Status::error(errors);
}

Status FaultInjector::act(FaultKind kind, const FaultAction& a, std::vector<int>& nodes) {
  const int k = nodes.empty() ? 0 : nodes.front();
  switch (kind) {
    case FaultKind::kKill: {
      Status s = signal(k, SIGKILL);
      if (s) killed_.insert(k), stopped_.erase(k);
      return s;
    }
    case FaultKind::kStop: {
      Status s = signal(k, SIGSTOP);
      if (s) stopped_.insert(k);
      return s;
    }
    case FaultKind::kCont: {
      Status s = signal(k, SIGCONT);
      if (s) stopped_.erase(k);
      return s;
    }
    case FaultKind::kRestart: {
      if (!killed_.count(k)) {
        return Status::error("node " + std::to_string(k) + " was not killed; not restarted");
      }
      Status s = cluster_.restart(k);
      if (s) killed_.erase(k);
      return s;
    }
    case FaultKind::kPartition: {
      if (!network_) return Status::error("partition needs network = netns");
      nodes = a.side_a;
      const auto b = a.side_b.empty() ? rest_of(a.side_a, cluster_.nodes()) : a.side_b;
      Status s = network_->cut(a.side_a, b);
      if (s) cut_.insert(a.side_a.begin(), a.side_a.end());
      return s;
    }
    case FaultKind::kHog:
      return quotas_ ? quotas_->hog(k) : Status::error("hog needs a cpu quota ([cluster] cpu = ...)");
    case FaultKind::kMigrate: return Status::ok();  // inject() starts it
    case FaultKind::kDrop: return set_frames(a.value, duplicate_, delay_ms_);
    case FaultKind::kDuplicate: return set_frames(drop_, a.value, delay_ms_);
    case FaultKind::kDelay: return set_frames(drop_, duplicate_, a.value);
  }
  return Status::ok();
}

InjectedFault FaultInjector::inject(const FaultEntry& entry, int root, std::uint64_t job_id,
                                    double now_s) {
  InjectedFault f;
  f.text = entry.text;
  f.kind = entry.action.kind;
  f.at_s = now_s;
  const bool has_target = f.kind == FaultKind::kKill || f.kind == FaultKind::kStop ||
                          f.kind == FaultKind::kCont || f.kind == FaultKind::kRestart ||
                          f.kind == FaultKind::kHog || f.kind == FaultKind::kMigrate;
  int k = 0;
  Status s = has_target ? pick(entry.action.target, root, k) : Status::ok();
  if (has_target && s) f.nodes = {k};
  if (s && f.kind == FaultKind::kMigrate) s = migrate(job_id, entry.action.task, k, now_s);
  else if (s) s = act(f.kind, entry.action, f.nodes);
  if (!s) f.error = s.message();
  return f;
}

void FaultInjector::undo(InjectedFault& f, double now_s) {
  FaultAction none;
  Status s = Status::ok();
  switch (f.kind) {
    case FaultKind::kKill: s = act(FaultKind::kRestart, none, f.nodes); break;
    case FaultKind::kStop: s = act(FaultKind::kCont, none, f.nodes); break;
    case FaultKind::kPartition:
      s = network_ ? network_->heal() : Status::ok();
      for (int k : f.nodes) cut_.erase(k);
      break;
    case FaultKind::kHog: s = quotas_ ? quotas_->stop_hog(f.nodes.front()) : Status::ok(); break;
    case FaultKind::kDrop: s = set_frames(0, duplicate_, delay_ms_); break;
    case FaultKind::kDuplicate: s = set_frames(drop_, 0, delay_ms_); break;
    case FaultKind::kDelay: s = set_frames(drop_, duplicate_, 0); break;
    case FaultKind::kCont:
    case FaultKind::kRestart:
    case FaultKind::kMigrate: return;
  }
  f.undone_s = now_s;
  if (!s) f.error += (f.error.empty() ? "" : "; ") + std::string("undo: ") + s.message();
}

}  // namespace drift::ctl
