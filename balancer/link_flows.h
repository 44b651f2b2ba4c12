// Net load flows on a BalanceProblem's links (internal to balancer/): one signed amount per link,
// positive from links[k].first to links[k].second. Turns an algorithm's ideal flows into the
// Transfers the caller applies, after enforcing seed 001's no-oscillation rule on them.
#pragma once

#include <vector>

#include "balancer/balance_problem.h"
#include "balancer/strategy.h"

namespace drift::balance {

using LinkFlows = std::vector<double>;

// Adds `amount` leaving node `from` along `arc` (one of from's arcs).
inline void add_flow(LinkFlows& flows, const Arc& arc, double amount) {
  flows[arc.link] += arc.sign * amount;
}

// Each node's load once every flow has moved.
std::vector<double> loads_after(const BalanceProblem& problem, const LinkFlows& flows);

// Shrinks flows until, once all are applied, no receiver's utilization exceeds its sender's
// (seed 001: no oscillation). Only ever reduces amounts, so it cannot create new transfers.
void keep_order(const BalanceProblem& problem, LinkFlows& flows);

// Drops negligible flows (<= 1e-12 of the total load), enforces keep_order, and lists the rest
// as Transfers in link order.
std::vector<Transfer> to_transfers(const BalanceProblem& problem, LinkFlows flows);

}  // namespace drift::balance
