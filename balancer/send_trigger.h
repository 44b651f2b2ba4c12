// Phase 2 of load balancing, the trigger (docs/architecture.md §8): whether this node sends work this round.
// The group's efficiency below eff_min says the group is out of balance; a node sends only when
// it is itself a cause — its own efficiency, the group's balanced utilization over its own, is
// below eff_min — so members near the balanced level do not trade single tasks while a slow
// machine is the bottleneck. With hysteresis (no oscillation): a node whose last round found
// nothing to send (and a node that has not sent yet) is settled and starts only below
// eff_min - hysteresis; once it sends, it goes on down to eff_min. Measured capacities wander
// by a few per cent and tasks are coarse, and the senders of one round, each with its own view,
// fill a fast receiver a few tasks past its share: an imbalance just past eff_min is noise, and
// a move for it would be undone by the next one. So a group settles within eff_min - hysteresis.
#pragma once

#include <vector>

#include "balancer/load_graph.h"

namespace drift::balance {

// The utilization every member would have if the load were spread to even them out: Σ load /
// Σ capacity without step floors; with them, the level U at which each member holding
// C (U - floor) holds it all, members whose floor is at or above U holding none. 0 when no
// member has capacity.
double balanced_utilization(const std::vector<NodeLoad>& group);
// The load `n` holds at that level: C (level - floor), at least 0 (0 without capacity).
double balanced_load(const NodeLoad& n, double level);

// balanced / self's utilization (its step floor included), at most 1: 1 when self is at or below
// the balanced level (or holds nothing), 0 when self holds load without capacity (it is leaving the
// pool).
double own_efficiency(const NodeLoad& self, double balanced);

struct TriggerParams {
  double eff_min = 0.9;      // balance.eff_min
  double hysteresis = 0.05;  // balance.hysteresis: how much further a settled node must fall
};

// Whether a node with this own efficiency sends: below eff_min, or below eff_min - hysteresis
// once settled.
bool should_send(double own_eff, bool settled, const TriggerParams& params);

}  // namespace drift::balance
