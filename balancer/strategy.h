// Phase 3 of load balancing, Transfer calculation (docs/architecture.md §8, seed 000): how much load should
// move along each link so that every node's load becomes proportional to its capacity. Pluggable
// algorithms: implicit heterogeneous diffusion (Figure 1), GDE, HBM, RID (seed 004). Pure: no I/O,
// no clocks, deterministic.
//
// Conventions shared by every strategy:
// - A Transfer moves `amount` (> 0, load units) from nodes[from] to nodes[to]; transfers only
//   move load, so the total is conserved.
// - Nothing moves while the graph's (the group's) efficiency is already >= eff_min.
// - No oscillation (seed 001): once all returned transfers are applied, no receiver's
//   utilization exceeds its sender's (to a relative 1e-9, beyond the rounding of adding the
//   amounts to the loads).
// - A node whose capacity is <= 0 or not finite has practically none: it is taken as 1e-9 of the
//   largest valid capacity around it, so it receives nothing worth moving and its load drains to
//   its neighbours. A negative or non-finite load is taken as 0.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "balancer/load_graph.h"

namespace drift::balance {

enum class Strategy { kNone, kHomogeneous, kDiffusion, kGde, kHbm, kRid };

// "none|homogeneous|diffusion|gde|hbm|rid"; throws std::invalid_argument naming the bad value.
Strategy parse_strategy(const std::string& name);
std::string to_string(Strategy strategy);

struct StrategyParams {
  double eff_min = 0.9;
  double alpha = 0;     // implicit diffusion accuracy and step, in (0, 1); 0 (or any value not
                        // > 0) = 1 - eff_min (seed 000); clamped into [0.01, 0.99]
  double lambda = 0.5;  // GDE step on each link, in (0, 1]; outside that 0.5 is used
  int max_sweeps = 50;  // bound on outer iterations (Figure 1's while-loop, GDE colour sweeps,
                        // RID steps); at least 1
};

struct Transfer {
  std::size_t from = 0, to = 0;  // indexes into graph.nodes (group for plan_for_self)
  double amount = 0;             // > 0, load units
};

// The ideal load transfers over the whole graph, load proportional to capacity as the goal.
// kHomogeneous: the same as kDiffusion with every (valid) capacity taken as 1 (the caller passes
// CPU time as load). kNone: empty. Net transfers: at most one Transfer per edge, in the direction
// of the net flow, in the order of graph.edges. Components of a disconnected graph balance
// separately. Relayed load is netted: a node may be asked to pass on more than it holds now.
std::vector<Transfer> compute_transfers(Strategy strategy, const LoadGraph& graph,
                                        const StrategyParams& params);

// What node `self` (index into group) should send to each other member of its local group, from
// self's view only (group = self and the members it exchanges load with, in any order). Every
// strategy works on the star around self, the only links self knows of (plan_for_self.cc says
// why and what was measured): diffusion, homogeneous, GDE and HBM compute their transfers over it
// and self relays what the group's balancing moves between members; for RID each member demands
// from self what Eq. 1-2 give with itself and self as its domain. Returns the positive amounts
// leaving self, at most one per receiving member (Transfer::to indexes into group), largest
// first, never more in total than self holds. Once self has sent them all, each receiver's
// utilization is still <= self's (self's view: what others send is not counted), so each send
// passes keeps_order(self after its other sends, receiver, amount) (capacities 1 for
// homogeneous, as its caller passes them). A member without capacity
// receives nothing; a self without capacity gives all its load away, whatever the strategy,
// filling the members up to a common utilization. Empty if self is out of range, the group has
// one member, or the group's efficiency is already >= eff_min.
std::vector<Transfer> plan_for_self(Strategy strategy, const std::vector<NodeLoad>& group,
                                    std::size_t self, const StrategyParams& params);

}  // namespace drift::balance
