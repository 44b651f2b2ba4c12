// Load balancing rounds and the receiver's re-check (balancer_service.h).
#include "node/balance/balancer_service.h"
#include "node/net/loop_watch.h"

#include "node/workers/job_binaries.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "balancer/profitability.h"
#include "protocol/codec.h"

namespace drift {

BalancerService::BalancerService(asio::io_context& io, Params params, Messenger& messenger,
                                 const MemberTable& members, LoadMeter& meter, TaskHost& host,
                                 MigrationService& migration, const LocationCache& locations,
                                 PartnerBook& partners, NodeCounters& counters)
    : io_(io),
      params_(params),
      messenger_(messenger),
      members_(members),
      meter_(meter),
      host_(host),
      migration_(migration),
      locations_(locations),
      partners_(partners),
      counters_(counters),
      timer_(io) {}

void BalancerService::start() {
  if (params_.planner.strategy == balance::Strategy::kNone) return;
  arm();
}

void BalancerService::stop() {
  stopped_ = true;
  timer_.cancel();
}

void BalancerService::arm() {
  timer_.expires_after(params_.period);
  timer_.async_wait([this](std::error_code ec) {
    if (ec || stopped_) return;
    const LoopHold hold("the balancing round");
    round();
    arm();
  });
}

balance::NodeLoad BalancerService::expected_load() const {
  double load = meter_.node_load() + migration_.incoming_balance_load();
  for (TaskId t : migration_.leaving_tasks()) load -= meter_.task_load(t);
  return {messenger_.self_id(), std::max(0.0, load), meter_.capacity(), meter_.step_floor()};
}

// Group members that are alive, have told us their load, and count (balancing_peer).
std::vector<balance::NodeLoad> BalancerService::peers() const {
  std::vector<balance::NodeLoad> out;
  for (std::uint32_t id : members_.local_group(params_.group_size)) {
    const Member* m = members_.find(id);
    if (!m || !m->heard || m->info.state != MemberState::kAlive) continue;
    if (auto peer = balancing_peer(id, m->load)) out.push_back(*peer);
  }
  return out;
}

// Hosted tasks that are measured, not finished and not already moving, with where their
// partners live.
std::vector<TaskView> BalancerService::movable_tasks() const {
  std::vector<TaskView> out;
  const std::uint32_t self = messenger_.self_id();
  for (TaskId id : host_.tasks()) {
    if (host_.frozen(id) || migration_.moving(id)) continue;
    const double load = meter_.task_load(id);
    if (!(load > 0)) continue;
    const TaskMeasure* measure = meter_.task(id);
    TaskView view{id, load, {}, measure ? measure->steps_left : -1};
    if (!asked_lately(id)) {
      const TaskGrain grain = host_.grain(id);
      view.splittable = grain.splittable;
      if (grain.merge_partner && !asked_lately(TaskId{id.job, *grain.merge_partner})) {
        view.merge_partner = grain.merge_partner;
      }
    }
    for (const auto& [partner, count] : partners_.partners(id)) {
      if (host_.hosts(partner)) {
        view.partners[self] += count;
      } else if (auto loc = locations_.lookup(partner)) {
        view.partners[loc->node] += count;
      }
    }
    out.push_back(std::move(view));
  }
  return out;
}

namespace {

// For the log: the group as this node saw it (node: load/capacity, +step floor where it has one)
// and the load sent to each.
std::string describe(const RoundInput& input, const std::vector<PlannedMove>& moves) {
  std::string out = "group";
  for (const auto& p : input.peers) {
    out += fmt::format(" {}:{:.4g}/{:.4g}", p.id, p.load, p.capacity);
    if (p.floor > 0) out += fmt::format("+{:.3g}s", p.floor);
  }
  std::map<std::uint32_t, std::pair<int, double>> sent;
  for (const auto& m : moves) {
    sent[m.dest].first += 1;
    sent[m.dest].second += m.load;
  }
  out += "; to";
  for (const auto& [dest, n] : sent) out += fmt::format(" {}:{}({:.4g})", dest, n.first, n.second);
  return out;
}

}  // namespace

void BalancerService::round() {
  ++rounds_;
  meter_.track(host_.tasks());  // tasks that left no longer count; unreported ones are estimated
  partners_.age();
  if (!active_ || !meter_.measured() || migration_.moving_out() > 0) return;
  RoundInput input{expected_load(), peers(), movable_tasks(), migration_.move_seconds(), settled_};
  if (input.peers.empty()) return;
  RoundPlan plan = plan_round(input, params_.planner);
  settled_ = plan.moves.empty();
  send_grain_requests(plan);
  for (const auto& r : plan.requests) {
    const balance::NodeLoad& from = input.peers[r.from];
    BalanceRequest req{messenger_.self_id(), r.amount, input.self.load, input.self.capacity,
                       input.self.floor};
    counters_.balance_bytes += encode(WireMessage(req)).size() + kFrameHeaderSize;
    messenger_.send_to_node(from.id, std::move(req));
  }
  if (plan.moves.empty()) return;
  spdlog::info(
      "balance round {}: group efficiency {:.3f}, moving {} tasks (load {:.4g}, "
      "capacity {:.4g}, step floor {:.3g} s); {}",
      rounds_, plan.efficiency, plan.moves.size(), input.self.load, input.self.capacity,
      input.self.floor, describe(input, plan.moves));
  ++counters_.balance_rounds;
  send_moves(plan.moves);
}

// A task goes only where its job has an executable (the destination would refuse it).
void BalancerService::send_moves(const std::vector<PlannedMove>& moves) {
  const balance::NodeLoad self = expected_load();
  for (const auto& m : moves) {
    const Member* dest = members_.find(m.dest);
    auto job = host_.job_info(m.task.job);
    if (!dest || !job || !runs_on(job->spec, dest->info.arch)) continue;
    migration_.move(m.task, m.dest,
                    BalanceBasis{true, m.load, self.load, self.capacity, self.floor});
    ++counters_.balance_moves;
  }
}

// A split or merge takes effect after the job's next step, which on a slow machine may be
// seconds away: a task named lately is not named again for this many rounds.
constexpr std::uint64_t kGrainPatience = 5;

bool BalancerService::asked_lately(TaskId task) const {
  auto it = grain_asked_.find(task);
  return it != grain_asked_.end() && rounds_ - it->second < kGrainPatience;
}

void BalancerService::send_grain_requests(const RoundPlan& plan) {
  std::erase_if(grain_asked_, [&](const auto& e) { return rounds_ - e.second >= kGrainPatience; });
  auto ask = [&](TaskId task, GrainChange change, std::uint32_t dest) {
    auto job = host_.job_info(task.job);
    if (!job) return;
    GrainRequest req{task.job, change, dest};
    counters_.balance_bytes += encode(WireMessage(req)).size() + kFrameHeaderSize;
    messenger_.send_to_node(job->root, std::move(req));
  };
  for (const PlannedSplit& s : plan.splits) {
    spdlog::info("balance round {}: no task fits the transfer to node {}; asking to split task "
                 "{}:{} (load {:.4g})",
                 rounds_, s.dest, s.task.job, s.task.index, meter_.task_load(s.task));
    grain_asked_[s.task] = rounds_;
    ask(s.task, GrainChange{GrainKind::kSplit, s.task.index, 0}, s.dest);
  }
  for (const auto& [into, absorbed] : plan.merges) {
    spdlog::info("balance round {}: tasks {}:{} and {} are both here; asking to merge them",
                 rounds_, into.job, into.index, absorbed.index);
    grain_asked_[into] = grain_asked_[absorbed] = rounds_;
    ask(into, GrainChange{GrainKind::kMerge, into.index, absorbed.index}, 0);
  }
}

void BalancerService::on_request(const BalanceRequest& request) {
  if (params_.planner.strategy == balance::Strategy::kNone) return;
  if (!std::isfinite(request.amount) || request.amount <= 0 || !std::isfinite(request.load) ||
      !std::isfinite(request.capacity) || request.capacity <= 0) {
    return;  // a peer's values, unchecked: nothing sensible to do
  }
  if (!active_ || migration_.moving_out() > 0 || !meter_.measured()) return;
  const balance::NodeLoad from{request.from, request.load, request.capacity,
                               peer_floor(request.floor)};
  auto moves =
      answer_request(expected_load(), from, request.amount, movable_tasks(), params_.planner);
  if (moves.empty()) return;
  ++counters_.balance_rounds;
  send_moves(moves);
}

// The receiver's re-check (docs/architecture.md §8 phase 5): with what we hold and what is already on its
// way here, the move must lower the pair's peak (Lee's condition, balance::lowers_peak). The
// floor it names is the one judged: an empty receiver's is raised to what the work brings along.
std::optional<std::string> BalancerService::recheck(const BalanceBasis& basis) const {
  if (params_.planner.strategy == balance::Strategy::kNone) {
    return "balancing is off on node " + std::to_string(messenger_.self_id());
  }
  const balance::NodeLoad self = expected_load();
  const balance::NodeLoad sender{0, basis.sender_load, basis.sender_capacity,
                                 peer_floor(basis.sender_floor)};
  if (balance::lowers_peak(sender, self, basis.task_load)) return std::nullopt;
  return fmt::format(
      "receiver would be at least as busy as the sender was: load {:.4g}+{:.4g} "
      "at capacity {:.4g} (step floor {:.3g} s) here, {:.4g} at {:.4g} (floor "
      "{:.3g} s) there",
      self.load, basis.task_load, self.capacity,
      balance::receiving(self, sender, basis.task_load).floor, basis.sender_load,
      basis.sender_capacity, sender.floor);
}

}  // namespace drift
