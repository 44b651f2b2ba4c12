// Balancing rounds of plan_round on seed 000's ten-machine testbed, simulated: every node plans
// from the same snapshot of its local group (a ring of 8 neighbours, as member_table forms it),
// all moves apply at once, and the receivers re-check as the daemons do. Coarse equal tasks, as
// the particle benchmark has them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "balancer/profitability.h"
#include "node/balance/balance_planner.h"

namespace drift {
namespace {

struct Cluster {
  std::vector<double> capacity;
  std::map<std::uint32_t, std::vector<TaskId>> tasks;  // node index -> tasks
  std::map<std::uint32_t, bool> settled;  // node index -> its last round sent nothing
  double task_load = 1;

  double load(std::size_t n) const { return task_load * static_cast<double>(tasks.at(n).size()); }
  double efficiency() const {
    std::vector<balance::NodeLoad> nodes;
    for (std::size_t n = 0; n < capacity.size(); ++n) nodes.push_back({std::uint32_t(n), load(n), capacity[n]});
    return balance::efficiency(nodes);
  }
  // The group of node n: up to 4 ring neighbours on each side.
  std::vector<std::size_t> group(std::size_t n) const {
    const std::size_t size = capacity.size();
    std::vector<std::size_t> g;
    for (std::size_t k = 1; k <= 4 && 2 * k < size + 1; ++k) {
      g.push_back((n + k) % size);
      if ((n + size - k) % size != (n + k) % size) g.push_back((n + size - k) % size);
    }
    return g;
  }
  // One synchronous round; returns the number of tasks moved.
  int round(const PlannerParams& params) {
    std::vector<PlannedMove> all;
    for (std::size_t n = 0; n < capacity.size(); ++n) {
      RoundInput in;
      in.self = {std::uint32_t(n), load(n), capacity[n]};
      for (std::size_t p : group(n)) in.peers.push_back({std::uint32_t(p), load(p), capacity[p]});
      for (TaskId t : tasks[n]) in.tasks.push_back({t, task_load, {}});
      in.settled = !settled.count(n) || settled[n];  // settled until it first sends
      auto plan = plan_round(in, params);
      settled[n] = plan.moves.empty();
      for (auto& m : plan.moves) all.push_back(m);
    }
    // Receivers re-check against what they hold plus what they already accepted this round.
    std::map<std::uint32_t, double> incoming;
    std::map<TaskId, std::uint32_t> from;
    for (auto& [n, list] : tasks) for (TaskId t : list) from[t] = n;
    int moved = 0;
    std::map<std::uint32_t, double> sender_load;
    for (std::size_t n = 0; n < capacity.size(); ++n) sender_load[n] = load(n);
    for (const auto& m : all) {
      const std::uint32_t src = from[m.task];
      balance::NodeLoad receiver{m.dest, load(m.dest) + incoming[m.dest], capacity[m.dest]};
      if (!balance::lowers_peak({src, sender_load[src], capacity[src]}, receiver, m.load)) continue;
      incoming[m.dest] += m.load;
      auto& src_list = tasks[src];
      src_list.erase(std::find(src_list.begin(), src_list.end(), m.task));
      tasks[m.dest].push_back(m.task);
      ++moved;
    }
    return moved;
  }
};

Cluster testbed(bool without_slowest, int task_count) {
  std::vector<double> speeds{1, 4.4, 6, 6, 6, 6.8, 8.6, 13, 38, 39};
  if (without_slowest) speeds.erase(speeds.begin());
  Cluster c;
  c.capacity = speeds;
  for (int i = 0; i < task_count; ++i) {
    c.tasks[static_cast<std::uint32_t>(i % speeds.size())].push_back({1, static_cast<std::uint32_t>(i)});
  }
  return c;
}

// The best step any placement of equal tasks could reach, over the ideal Σwork / Σcapacity.
double ideal_efficiency(const Cluster& c, int task_count) {
  double total = 0;
  for (double cap : c.capacity) total += cap;
  return (task_count / total) / [&] {
    // smallest max(n_i / c_i) with Σ n_i = task_count: greedy on the next finishing time
    std::vector<int> n(c.capacity.size(), 0);
    for (int t = 0; t < task_count; ++t) {
      std::size_t best = 0;
      for (std::size_t i = 1; i < n.size(); ++i) {
        if ((n[i] + 1) / c.capacity[i] < (n[best] + 1) / c.capacity[best]) best = i;
      }
      ++n[best];
    }
    double worst = 0;
    for (std::size_t i = 0; i < n.size(); ++i) worst = std::max(worst, n[i] / c.capacity[i]);
    return worst;
  }();
}

struct Outcome {
  double efficiency = 0;
  int last_active = 0;  // the last round that moved a task
};

Outcome run_rounds(bool without_slowest, balance::Strategy strategy, double eff_min) {
  const int task_count = 320;
  Cluster c = testbed(without_slowest, task_count);
  PlannerParams p;
  p.strategy = strategy;
  p.eff_min = eff_min;
  p.max_moves = 64;
  int rounds = 0, last_active = 0;
  for (rounds = 1; rounds <= 12; ++rounds) {
    int moved = c.round(p);
    if (moved > 0) last_active = rounds;
    if (std::getenv("BALANCE_TRACE")) {
      std::printf("round %d moved %d eff %.3f loads", rounds, moved, c.efficiency());
      for (std::size_t n = 0; n < c.capacity.size(); ++n) std::printf(" %.0f", c.load(n));
      std::printf("\n");
    }
  }
  EXPECT_GE(ideal_efficiency(c, task_count), 0.99);  // equal tasks are fine enough
  return {c.efficiency(), last_active};
}

// With hysteresis a member settles once it is within eff_min - hysteresis of its group's
// balanced level, so that is what the group's efficiency is held to.
TEST(BalanceRoundsTest, DiffusionBalancesTheTestbedWithinFiveRounds) {
  const double hysteresis = PlannerParams{}.hysteresis;
  for (bool without_slowest : {false, true}) {
    SCOPED_TRACE(without_slowest ? "without the slowest" : "all ten");
    for (double eff_min : {0.9, 0.95}) {
      SCOPED_TRACE(eff_min);
      Outcome o = run_rounds(without_slowest, balance::Strategy::kDiffusion, eff_min);
      EXPECT_GE(o.efficiency, eff_min - hysteresis);
      EXPECT_LE(o.last_active, 5);
    }
  }
}

// GDE and HBM over a local group overshoot in the first round (every node sends to the fast
// machines at once); they still settle, stop moving, and end far better than the start.
TEST(BalanceRoundsTest, OtherStrategiesSettle) {
  for (auto s : {balance::Strategy::kGde, balance::Strategy::kHbm}) {
    SCOPED_TRACE(balance::to_string(s));
    Outcome o = run_rounds(false, s, 0.9);
    EXPECT_GE(o.efficiency, 0.8);
    EXPECT_LE(o.last_active, 8);
  }
}

}  // namespace
}  // namespace drift
