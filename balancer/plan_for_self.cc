// plan_for_self (declared in strategy.h): one node's share of a balancing round over its local
// group, as the daemon applies it: only what leaves self is returned.
//
// Every strategy works on the star around self: the links self knows exist. Members' links to
// each other are unknown to self (rings and meshes have none), and load a strategy moved along
// them would be moved by nobody. So diffusion, GDE and HBM relay through self what the group's
// balancing moves between members, and RID takes each member's domain to be itself and self.
// The complete graph over the group was measured too, with tests/balancer's simulator (rounds to
// a global eff of 0.99 from the convergence tests' starts; complete graph in brackets):
//   diffusion  ring16 193 [335], mesh 4x4 33 [51], random 10-40 nodes 66-165 [224-246],
//              driftd's id-ring groups of 8 over 40 nodes 22 [83], a 10-node clique 13 [4];
//   HBM, RID   on the complete graph only members above the group's average send, which stalls
//              on ramps: a 16-ring stayed at eff 0.93 for 1000 rounds.
// The star loses only where groups are cliques: everyone relays, receivers overshoot, and the
// order rule below brings them back within a few rounds.
#include <algorithm>

#include "balancer/balance_problem.h"
#include "balancer/receiver_initiated.h"
#include "balancer/strategy.h"

namespace drift::balance {
namespace {

constexpr double kNegligible = 1e-12;  // of the group's total load

LoadGraph star_around(const std::vector<NodeLoad>& group, std::size_t self) {
  LoadGraph g{group, {}};
  for (std::size_t j = 0; j < group.size(); ++j) {
    if (j != self) g.edges.emplace_back(self, j);
  }
  return g;
}

// RID from self's side: each member's domain, in the star, is itself and self.
std::vector<Transfer> rid_sends(const BalanceProblem& p, std::size_t self) {
  std::vector<Transfer> sends;
  for (std::size_t r = 0; r < p.size(); ++r) {
    if (r == self) continue;
    const double d = rid_demands(p.load, p.capacity, {r, self}, r)[1];
    if (d > 0) sends.push_back({self, r, d});
  }
  return sends;
}

// A self without capacity is leaving the pool (its owner took the machine back, say): whatever the
// strategy, it offers all its load to every member, and keep_order_from_self fills them up to a
// common utilization.
std::vector<Transfer> evacuation(const BalanceProblem& p, std::size_t self) {
  std::vector<Transfer> sends;
  for (std::size_t r = 0; r < p.size(); ++r) {
    if (r != self && p.load[self] > 0) sends.push_back({self, r, p.load[self]});
  }
  return sends;
}

std::vector<Transfer> sends_of(Strategy strategy, const std::vector<NodeLoad>& group,
                               const BalanceProblem& p, std::size_t self,
                               const StrategyParams& params) {
  if (!p.has_capacity[self]) return evacuation(p, self);
  if (strategy == Strategy::kRid) return rid_sends(p, self);
  std::vector<Transfer> sends;
  for (const Transfer& t : compute_transfers(strategy, star_around(group, self), params)) {
    if (t.from == self) sends.push_back(t);
  }
  return sends;
}

// Shrinks sends so that each receiver, after what self sends it, is still at or below self after
// all its sends: finds self's final utilization v with v = (L_self - Σ_r s_r(v)) / C_self, where
// s_r(v) = min(planned_r, v C_r - L_r) is what keeps receiver r at or below v. The left side
// rises and the right side falls with v, so bisection finds the one crossing.
void keep_order_from_self(const BalanceProblem& p, std::size_t self, std::vector<Transfer>& sends) {
  const auto send_at = [&](const Transfer& t, double v) {
    return std::clamp(v * p.capacity[t.to] - p.load[t.to], 0.0, t.amount);
  };
  const auto self_after = [&](double v) {
    double left = p.load[self];
    for (const Transfer& t : sends) left -= send_at(t, v);
    return left / p.capacity[self];
  };
  double lo = 0, hi = p.load[self] / p.capacity[self];
  for (int i = 0; i < 200; ++i) {
    const double mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    (self_after(mid) >= mid ? lo : hi) = mid;
  }
  for (Transfer& t : sends) t.amount = send_at(t, lo);
}

}  // namespace

std::vector<Transfer> plan_for_self(Strategy strategy, const std::vector<NodeLoad>& group,
                                    std::size_t self, const StrategyParams& params) {
  if (strategy == Strategy::kNone || self >= group.size() || group.size() < 2) return {};
  const BalanceProblem p =
      BalanceProblem::from(LoadGraph{group, {}}, strategy == Strategy::kHomogeneous);
  if (std::none_of(p.has_capacity.begin(), p.has_capacity.end(), [](bool b) { return b; })) {
    return {};
  }
  if (efficiency(p, p.load) >= params.eff_min) return {};

  std::vector<Transfer> sends = sends_of(strategy, group, p, self, params);
  std::erase_if(sends, [&](const Transfer& t) { return !p.has_capacity[t.to]; });
  keep_order_from_self(p, self, sends);
  const double negligible = kNegligible * p.total_load();
  std::erase_if(sends, [&](const Transfer& t) { return !(t.amount > negligible); });
  std::stable_sort(sends.begin(), sends.end(),
                   [](const Transfer& a, const Transfer& b) { return a.amount > b.amount; });
  return sends;
}

}  // namespace drift::balance
