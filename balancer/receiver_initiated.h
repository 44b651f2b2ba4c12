// Receiver-initiated diffusion, seed 004 Eq. 1-2, made heterogeneous (internal to balancer/): an
// underloaded node r of domain D (itself and its neighbours) demands from each member i
//     d_i = (C_r u_avg - L_r) h_i / h_sum,   h_i = max(L_i - C_i u_avg, 0),   h_sum = Σ_{i≠r} h_i,
// with u_avg = Σ_D L / Σ_D C, so loads go proportional to capacity (equal capacities: Eq. 1-2).
#pragma once

#include <cstddef>
#include <vector>

#include "balancer/balance_problem.h"
#include "balancer/link_flows.h"
#include "balancer/strategy.h"

namespace drift::balance {

// What `receiver` demands from each node of `domain` (receiver included), in domain order; all
// zero unless the receiver is below the domain's average utilization.
std::vector<double> rid_demands(const std::vector<double>& load,
                                const std::vector<double>& capacity,
                                const std::vector<std::size_t>& domain, std::size_t receiver);

// Repeated RID steps while eff < eff_min, at most max_sweeps; in each step every node demands
// from its neighbours at once. A sender serves its askers lowest domain average first, each only
// as far as the sender stays at or above that average (seed 001: no oscillation).
LinkFlows receiver_initiated(const BalanceProblem& problem, const StrategyParams& params);

}  // namespace drift::balance
