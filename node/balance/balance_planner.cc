// One balancing round's decision (balance_planner.h).
#include "node/balance/balance_planner.h"

#include <algorithm>
#include <cmath>

#include "balancer/profitability.h"
#include "balancer/send_trigger.h"
#include "balancer/task_selection.h"

namespace drift {

namespace {

using balance::NodeLoad;

// > 0 when the task sends more to tasks on `dest` than to tasks staying on `self`, in [-1, 1].
double locality(const TaskView& task, std::uint32_t self, std::uint32_t dest) {
  double total = 0, there = 0, here = 0;
  for (const auto& [node, count] : task.partners) {
    total += count;
    if (node == dest) there += count;
    if (node == self) here += count;
  }
  return total > 0 ? (there - here) / total : 0;
}

// The most that can move from sender to receiver while the receiver stays below the sender's
// utilization before the move (Lee's condition, balance::lowers_peak).
double peak_amount(const NodeLoad& sender, const NodeLoad& receiver) {
  if (!(sender.capacity > 0)) return sender.load;
  return std::max(
      0.0, (balance::utilization(sender) - receiver.floor) * receiver.capacity - receiver.load);
}

// Tasks (indexes into `tasks`, skipping `taken`) that meet `amount` toward `dest` best; the
// selection may overshoot the amount up to `limit` (tasks are coarse: a closer total beats none).
std::vector<std::size_t> choose(const std::vector<TaskView>& tasks, const std::vector<bool>& taken,
                                std::uint32_t self, std::uint32_t dest, double amount, double limit,
                                const PlannerParams& params) {
  std::vector<balance::Candidate> candidates;
  std::vector<std::size_t> index;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    if (taken[i] || !(tasks[i].load > 0)) continue;
    // Locality in units of the task's own load: keeping a task near its partners is worth a
    // fraction of that task (locality_weight), a preference among selections of about the same
    // load. Scaled by the whole transfer instead, each task whose partners all stay here cost
    // more than it moved once a transfer held ten tasks, and a slow machine handed out its
    // queue a few border tasks per round.
    candidates.push_back({i, tasks[i].load, 0, tasks[i].load * locality(tasks[i], self, dest)});
    index.push_back(i);
  }
  balance::SelectionParams sp;
  sp.locality_weight = params.locality_weight;
  sp.tolerance = std::max(sp.tolerance, limit / amount - 1);
  std::vector<std::size_t> out;
  for (std::size_t k : balance::select_tasks(candidates, amount, sp)) out.push_back(index[k]);
  return out;
}

double max_utilization(const std::vector<NodeLoad>& group) {
  double u = 0;
  for (const auto& n : group) u = std::max(u, balance::utilization(n));
  return u;
}

// While this node is the busiest member of its group, as the loads will be after the moves
// planned so far, and still out of balance itself, it moves its smallest task where that lowers
// the peak the most. Each move keeps Lee's condition on those loads, so no task can come back.
void move_single_tasks(const RoundInput& input, const PlannerParams& params, double balanced,
                       std::vector<NodeLoad>& after, std::vector<bool>& taken,
                       std::vector<PlannedMove>& moves) {
  while (moves.size() < params.max_moves &&
         balance::utilization(after[0]) >= max_utilization(after) &&
         balance::own_efficiency(after[0], balanced) < params.eff_min) {
    std::size_t task = input.tasks.size();
    for (std::size_t i = 0; i < input.tasks.size(); ++i) {
      if (!taken[i] && input.tasks[i].load > 0 &&
          (task == input.tasks.size() || input.tasks[i].load < input.tasks[task].load)) {
        task = i;
      }
    }
    if (task == input.tasks.size()) return;
    const double load = input.tasks[task].load;
    std::size_t best = 0;
    double best_u = 0;
    for (std::size_t j = 1; j < after.size(); ++j) {
      if (!balance::lowers_peak(after[0], after[j], load)) continue;
      const double u = balance::utilization(balance::receiving(after[j], after[0], load));
      if (best == 0 || u < best_u) best = j, best_u = u;
    }
    if (best == 0) return;
    taken[task] = true;
    moves.push_back({input.tasks[task].id, after[best].id, load});
    after[best] = balance::receiving(after[best], after[0], load);
    after[0].load -= load;
  }
}

// Once whole tasks can do no more: this node is still the busiest of the group as the moves
// leave it, and out of balance, but no task of its can go anywhere without making its receiver
// the new bottleneck. Half of a task that can split may: the largest task whose half can go to
// some member without making it the new bottleneck is split, when that half's move would pay for
// itself (Lee's criterion, as for moves). The half moves in a later round, or at once when the
// root finds a spare task on the receiver.
std::optional<PlannedSplit> plan_split(const RoundInput& input, const PlannerParams& params,
                                       double balanced, double efficiency,
                                       const std::vector<NodeLoad>& after,
                                       const std::vector<bool>& taken) {
  if (balance::utilization(after[0]) < max_utilization(after) ||
      balance::own_efficiency(after[0], balanced) >= params.eff_min) {
    return std::nullopt;
  }
  // Candidates, largest first; the first whose half fits somewhere is split.
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < input.tasks.size(); ++i) {
    if (!taken[i] && input.tasks[i].splittable && input.tasks[i].load > 0) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return input.tasks[a].load > input.tasks[b].load;
  });
  std::size_t task = 0, best = 0;
  double half = 0;
  for (std::size_t i : order) {
    half = input.tasks[i].load / 2;
    double best_u = 0;
    for (std::size_t j = 1; j < after.size(); ++j) {
      if (!balance::lowers_peak(after[0], after[j], half)) continue;
      const double u = balance::utilization(balance::receiving(after[j], after[0], half));
      if (best == 0 || u < best_u) best = j, best_u = u;
    }
    if (best != 0) {
      task = i;
      break;
    }
  }
  if (best == 0) return std::nullopt;
  const double steps_left = input.tasks[task].steps_left < 0 ? 1e6 : input.tasks[task].steps_left;
  NodeLoad sender = after[0], receiver = after[best];
  const double before = std::max(balance::utilization(sender), balance::utilization(receiver));
  receiver = balance::receiving(receiver, sender, half);
  sender.load -= half;
  const double later = std::max(balance::utilization(sender), balance::utilization(receiver));
  balance::ProfitInputs profit{efficiency, params.eff_min, before, later, steps_left,
                               input.move_seconds};
  if (!balance::profitable(profit)) return std::nullopt;
  return PlannedSplit{input.tasks[task].id, after[best].id};
}

// Pairs of tasks hosted here that can become one again (each task at most once).
std::vector<std::pair<TaskId, TaskId>> plan_merges(const RoundInput& input) {
  std::vector<std::pair<TaskId, TaskId>> out;
  std::vector<TaskId> used;
  auto is_used = [&](TaskId t) { return std::find(used.begin(), used.end(), t) != used.end(); };
  for (const TaskView& t : input.tasks) {
    if (!t.merge_partner || is_used(t.id)) continue;
    const TaskId partner{t.id.job, *t.merge_partner};
    const bool here = std::any_of(input.tasks.begin(), input.tasks.end(),
                                  [&](const TaskView& v) { return v.id == partner; });
    if (!here || partner == t.id || is_used(partner)) continue;
    out.emplace_back(t.id, partner);
    used.push_back(t.id);
    used.push_back(partner);
  }
  return out;
}

RoundPlan plan_moves(const RoundInput& input, const PlannerParams& params);

}  // namespace

// A node that has nothing to send merges what it can: fewer, larger tasks exchange fewer
// messages, and a split can be asked for again should the balance need it.
RoundPlan plan_round(const RoundInput& input, const PlannerParams& params) {
  RoundPlan plan = plan_moves(input, params);
  if (plan.moves.empty() && plan.splits.empty() && plan.requests.empty() && !plan.sending) {
    plan.merges = plan_merges(input);
  }
  return plan;
}

namespace {

RoundPlan plan_moves(const RoundInput& input, const PlannerParams& params) {
  RoundPlan plan;
  std::vector<NodeLoad> group{input.self};
  group.insert(group.end(), input.peers.begin(), input.peers.end());
  plan.efficiency = balance::efficiency(group);
  plan.balance_needed = plan.efficiency < params.eff_min;
  if (!plan.balance_needed || params.strategy == balance::Strategy::kNone || group.size() < 2) {
    return plan;
  }
  // The round starts below eff_min; its transfers aim at a nearly even group (Figure 1's loop
  // would stop at eff_min, and coarse tasks could then never meet the last transfers), with the
  // accuracy alpha = 1 - eff_min of the seed.
  balance::StrategyParams sp;
  sp.eff_min = std::max(params.eff_min, 0.99);
  sp.alpha = 1 - params.eff_min;
  if (params.strategy == balance::Strategy::kRid) {
    auto transfers = balance::compute_transfers(params.strategy, balance::LoadGraph::star(group), sp);
    for (const auto& t : transfers) {
      if (t.to == 0 && t.from > 0) plan.requests.push_back({t.from - 1, 0, t.amount});
    }
    return plan;
  }
  // Only a member that is itself out of balance sends (with hysteresis once settled): members
  // near the balanced level would otherwise trade single tasks on noise while another member is
  // the bottleneck, and again after the group has balanced.
  const double mean = balance::balanced_utilization(group);
  if (!balance::should_send(balance::own_efficiency(input.self, mean), input.settled,
                            {params.eff_min, params.hysteresis})) {
    return plan;
  }
  plan.sending = true;
  std::vector<NodeLoad> after = group;
  std::vector<bool> taken(input.tasks.size(), false);
  // Every member of the group above the mean sends at once, each from its own view: a receiver
  // below the mean takes from this node its part of its deficit, in proportion to the senders'
  // excess (as receiver-initiated diffusion splits its demand, seed 004 Eq. 2), so the fast
  // machines are not filled past their share and made to send work back. These parts add up to
  // this node's excess, sent in one round: a slow machine cannot send again until its moves are
  // done, after the step its worker is in, so what the strategy's first-order flows leave
  // behind would cost it another step and land after the others have balanced.
  double excess = 0;
  for (const auto& n : group) excess += std::max(0.0, n.load - balance::balanced_load(n, mean));
  const double my_part =
      excess > 0
          ? std::max(0.0, input.self.load - balance::balanced_load(input.self, mean)) / excess
          : 0;
  double smallest = 0;
  for (const auto& t : input.tasks) {
    if (t.load > 0 && (smallest == 0 || t.load < smallest)) smallest = t.load;
  }
  for (const auto& send : balance::plan_for_self(params.strategy, group, 0, sp)) {
    if (plan.moves.size() >= params.max_moves) break;
    const std::uint32_t dest = group[send.to].id;
    const NodeLoad& r = group[send.to];
    const double deficit = std::max(0.0, balance::balanced_load(r, mean) - r.load);
    // ... and at least one task's worth when the strategy asks for that much: coarse tasks would
    // otherwise stall the last steps of the balance.
    const double amount = params.strategy == balance::Strategy::kHomogeneous
                              ? send.amount
                              : std::max(deficit * my_part, std::min(send.amount, smallest));
    if (!(amount > 0)) continue;
    auto chosen = choose(input.tasks, taken, input.self.id, dest, amount,
                         peak_amount(after[0], after[send.to]), params);
    while (chosen.size() + plan.moves.size() > params.max_moves) chosen.pop_back();
    double moved = 0;
    for (std::size_t i : chosen) moved += input.tasks[i].load;
    if (chosen.empty() || !balance::lowers_peak(after[0], after[send.to], moved)) continue;
    for (std::size_t i : chosen) {
      taken[i] = true;
      plan.moves.push_back({input.tasks[i].id, dest, input.tasks[i].load});
    }
    after[send.to] = balance::receiving(after[send.to], after[0], moved);
    after[0].load -= moved;
  }
  // Tasks are coarse: transfers that each come to less than a task move nothing, and a slow
  // machine left with a few tasks too many would shed them one round at a time.
  move_single_tasks(input, params, mean, after, taken, plan.moves);
  if (plan.moves.size() < params.max_moves) {
    if (auto split = plan_split(input, params, mean, plan.efficiency, after, taken)) {
      plan.splits.push_back(*split);
    }
  }
  // Lee's criterion: the time the moves win on the step of the busiest of this node and its
  // receivers, over the steps the job has left, must exceed what the moves cost (the job waits
  // for a moving task about as long as the move takes). Other members are not ours to improve:
  // their own rounds do that.
  std::vector<NodeLoad> touched_before{group[0]}, touched_after{after[0]};
  for (std::size_t i = 1; i < group.size(); ++i) {
    if (after[i].load != group[i].load) {
      touched_before.push_back(group[i]);
      touched_after.push_back(after[i]);
    }
  }
  double steps_left = 0;
  for (const PlannedMove& m : plan.moves) {
    for (const TaskView& t : input.tasks) {
      if (t.id == m.task) steps_left = std::max(steps_left, t.steps_left < 0 ? 1e6 : t.steps_left);
    }
  }
  const double cost = input.move_seconds * static_cast<double>(plan.moves.size());
  balance::ProfitInputs profit{plan.efficiency, params.eff_min, max_utilization(touched_before),
                               max_utilization(touched_after), steps_left, cost};
  if (!plan.moves.empty() && !balance::profitable(profit)) plan.moves.clear();
  return plan;
}

}  // namespace

double peer_floor(double seconds) { return std::isfinite(seconds) && seconds > 0 ? seconds : 0; }

std::optional<balance::NodeLoad> balancing_peer(std::uint32_t id, const LoadIndex& index) {
  if (index.owner != OwnerState::kAvailable) return std::nullopt;
  const double load = index.task_load, capacity = index.capacity;
  if (!std::isfinite(load) || load < 0 || !std::isfinite(capacity) || capacity <= 0) {
    return std::nullopt;
  }
  if (load > 0 && !index.capacity_measured) return std::nullopt;
  return balance::NodeLoad{id, load, capacity, peer_floor(index.step_floor)};
}

std::vector<PlannedMove> answer_request(const NodeLoad& self, const NodeLoad& receiver,
                                        double amount, const std::vector<TaskView>& tasks,
                                        const PlannerParams& params) {
  std::vector<PlannedMove> moves;
  std::vector<bool> taken(tasks.size(), false);
  auto chosen = choose(tasks, taken, self.id, receiver.id, amount, amount, params);
  while (chosen.size() > params.max_moves) chosen.pop_back();
  double moved = 0;
  for (std::size_t i : chosen) moved += tasks[i].load;
  if (chosen.empty() || !balance::lowers_peak(self, receiver, moved)) return moves;
  for (std::size_t i : chosen) moves.push_back({tasks[i].id, receiver.id, tasks[i].load});
  return moves;
}

}  // namespace drift
