// Phase 2 of load balancing, Profitability (docs/architecture.md §8, seed 001 §3.3 and §4.3, Lee's
// criteria): balance only when the group is out of balance and the time won over the remaining
// steps pays for the moves; never move work that would turn the receiver into the busier node.
#pragma once

#include "balancer/load_graph.h"

namespace drift::balance {

struct ProfitInputs {
  double eff = 1, eff_min = 0.9;
  double step_seconds_now = 0;    // U_max now
  double step_seconds_after = 0;  // U_max expected after the transfers
  double remaining_steps = 0;     // steps left in the job (may be large/unknown: pass a big number)
  double migration_seconds = 0;   // estimated cost of the moves
};

// eff < eff_min && (now - after) * remaining > migration cost. False if any input is NaN.
bool profitable(const ProfitInputs& in);

// No oscillation: moving `amount` (>= 0, at most what the sender holds) from sender to receiver
// leaves the receiver's utilization <= the sender's (to a relative 1e-9, so an exact evening-out
// qualifies). A sender without capacity (<= 0) is leaving the pool and may give any part of its
// load; a receiver without capacity qualifies only if it ends up holding nothing.
bool keeps_order(const NodeLoad& sender, const NodeLoad& receiver, double amount);
// Lee's condition for moving whole tasks (seed 001 §4.3: T_k n_k > T_i (n_i + 1)): after the move
// the receiver's utilization is below the sender's utilization before it, so the pair's peak
// falls. Weaker than keeps_order — a coarse task may leave the receiver a little busier than
// the sender — yet the task can never come back: that would need the sender's old utilization
// to be below the receiver's new one. Every accepted move lowers the sorted utilizations
// lexicographically, so moves cannot cycle. A receiver holding nothing is judged with the step
// floor the work brings along (receiving, load_graph.h).
bool lowers_peak(const NodeLoad& sender, const NodeLoad& receiver, double amount);

}  // namespace drift::balance
