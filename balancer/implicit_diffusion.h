// Heterogeneous implicit diffusion, seed 000 Figure 1 (internal to balancer/; the default
// transfer calculation). Every node runs the figure on the same data, so it is computed here for
// all nodes at once.
#pragma once

#include "balancer/balance_problem.h"
#include "balancer/link_flows.h"
#include "balancer/strategy.h"

namespace drift::balance {

// α as used: params.alpha, or 1 - eff_min when alpha is not > 0, clamped into [0.01, 0.99].
double diffusion_alpha(const StrategyParams& params);

// m of Figure 1: Jacobi sweeps per implicit step for accuracy α (>= 1).
int jacobi_sweeps(const BalanceProblem& problem, double alpha);

LinkFlows implicit_diffusion(const BalanceProblem& problem, const StrategyParams& params);

}  // namespace drift::balance
