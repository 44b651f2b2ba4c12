// Heterogeneous generalized dimension exchange, seed 000 (internal to balancer/): links are
// coloured so no node has two links of one colour; colour by colour, each link moves
// λ (C_j L_i - C_i L_j) / (C_i + C_j) from i to j, loads adjusted after each colour.
#pragma once

#include <cstddef>
#include <vector>

#include "balancer/balance_problem.h"
#include "balancer/link_flows.h"
#include "balancer/strategy.h"

namespace drift::balance {

// Greedy proper link colouring: colours[c] lists the links of colour c, in link order; no node
// has two links of one colour (at most 2Δ - 1 colours).
std::vector<std::vector<std::size_t>> colour_links(const BalanceProblem& problem);

// The first-order (explicit diffusion) step on one link: what moves from i to j, weighted so
// that λ = 1 evens their utilizations.
inline double exchange_step(double li, double ci, double lj, double cj, double lambda) {
  return lambda * (cj * li - ci * lj) / (ci + cj);
}

// Sweeps over all colours while eff < eff_min, at most max_sweeps.
LinkFlows dimension_exchange(const BalanceProblem& problem, const StrategyParams& params);

}  // namespace drift::balance
