// Status polling of every daemon during a fault run (fault_observer.h).
#include "ctl/fault_observer.h"

#include <algorithm>
#include <cmath>

#include "ctl/status_query.h"

namespace drift::ctl {

namespace {

constexpr auto kAnswerTimeout = std::chrono::milliseconds(300);

void add(NodeCounters& sum, const NodeCounters& c) {
  sum.suspicions += c.suspicions;
  sum.deaths_declared += c.deaths_declared;
  sum.migrations_out += c.migrations_out;
  sum.migrations_in += c.migrations_in;
  sum.refutations += c.refutations;
  sum.fences += c.fences;
  sum.heartbeats_received += c.heartbeats_received;
  sum.late_heartbeats += c.late_heartbeats;
  sum.longest_gap_ms = std::max(sum.longest_gap_ms, c.longest_gap_ms);
  sum.longest_stall_ms = std::max(sum.longest_stall_ms, c.longest_stall_ms);
}

}  // namespace

std::chrono::milliseconds observer_interval(std::chrono::milliseconds base,
                                            std::optional<double> cores) {
  constexpr double kFullCore = 0.5;  // from here up, a daemon answers every base
  if (!cores || !(*cores > 0) || *cores >= kFullCore) return base;
  return std::chrono::milliseconds(
      static_cast<long long>(std::ceil(static_cast<double>(base.count()) * kFullCore / *cores)));
}

FaultObserver::FaultObserver(std::vector<ConnectOptions> nodes, Clock::time_point t0,
                             std::vector<std::chrono::milliseconds> intervals)
    : nodes_(std::move(nodes)), t0_(t0), intervals_(std::move(intervals)) {
  for (auto& n : nodes_) n.connect_timeout = n.handshake_timeout = kAnswerTimeout;
  intervals_.resize(nodes_.size(), intervals_.empty() ? std::chrono::milliseconds(30)
                                                      : intervals_.back());
}

FaultObserver::~FaultObserver() { stop(); }

void FaultObserver::start() {
  for (int k = 1; k <= static_cast<int>(nodes_.size()); ++k) {
    threads_.emplace_back([this, k] { watch(k); });
  }
}

void FaultObserver::stop() {
  stopping_ = true;
  for (auto& t : threads_) t.join();
  threads_.clear();
}

// A paused or dead daemon just fails to answer; its thread keeps trying at the same pace.
void FaultObserver::watch(int k) {
  std::unique_ptr<ClientConnection> connection;
  while (!stopping_) {
    const auto next = Clock::now() + intervals_[static_cast<std::size_t>(k - 1)];
    if (!connection) {
      auto opened = ClientConnection::open(nodes_[static_cast<std::size_t>(k - 1)]);
      if (opened) connection = std::move(*opened);
    }
    if (connection) {
      auto reply = query_status(*connection, kAnswerTimeout);
      if (reply) {
        record(k, *reply);
      } else {
        connection.reset();
      }
    }
    std::this_thread::sleep_until(next);  // pacing of the poll, not synchronisation
  }
}

void FaultObserver::record(int k, const StatusReply& reply) {
  const double t = std::chrono::duration<double>(Clock::now() - t0_).count();
  std::lock_guard lock(mutex_);
  for (const NodeStatus& n : reply.nodes) {
    const int target = static_cast<int>(n.member.node_id);
    if (target == k) {
      counters_[{k, n.member.incarnation}] = n.counters;
      continue;
    }
    auto& last = last_[{k, target}];
    const auto now = std::make_pair(n.member.state, n.member.incarnation);
    if (last == now) continue;
    last = now;
    sightings_.push_back({t, k, target, n.member.state, n.member.incarnation});
  }
}

std::vector<MemberSighting> FaultObserver::sightings() const {
  std::lock_guard lock(mutex_);
  return sightings_;
}

bool FaultObserver::seen(int target, MemberState state, double after_s) const {
  std::lock_guard lock(mutex_);
  return std::any_of(sightings_.begin(), sightings_.end(), [&](const MemberSighting& s) {
    return s.target == target && s.observer != target && s.state == state && s.t >= after_s;
  });
}

std::map<int, NodeCounters> FaultObserver::counters() const {
  std::lock_guard lock(mutex_);
  std::map<int, NodeCounters> sum;
  for (const auto& [key, c] : counters_) add(sum[key.first], c);
  return sum;
}

}  // namespace drift::ctl
