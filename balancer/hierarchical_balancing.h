// Heterogeneous hierarchical balancing method, seed 000 (internal to balancer/): split the
// nodes in two, move ΔL_12 = (C_2 L_1 - C_1 L_2) / (C_1 + C_2) between the halves, recurse into
// each half. One pass leaves every node of a connected component at the same utilization.
#pragma once

#include <cstddef>
#include <vector>

#include "balancer/balance_problem.h"
#include "balancer/link_flows.h"

namespace drift::balance {

// The order in which `part` is cut in two: breadth-first over the links between members of
// `part`, from a node far from the first member (a pseudo-peripheral node), so the first half is
// connected and the cut short on rings and meshes. Members unreachable inside `part` follow.
std::vector<std::size_t> bisection_order(const BalanceProblem& problem,
                                         const std::vector<std::size_t>& part);

// Routing (how ΔL_12 travels between the halves): the sending half gives from its members above
// the component's final utilization, most loaded first, each at most its excess; the receiving
// half takes into its members below it, least loaded first, each at most its deficit; every
// matched piece travels along a shortest path of the whole graph (one link in a complete group).
// So no node passes on load it was not meant to keep, except on the path's inner nodes.
LinkFlows hierarchical_balancing(const BalanceProblem& problem);

}  // namespace drift::balance
