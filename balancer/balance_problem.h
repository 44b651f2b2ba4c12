// The numeric form every transfer algorithm works on (internal to balancer/): sanitized loads and
// capacities, the graph's distinct links and adjacency lists. Algorithms return one signed flow
// per link, positive from links[k].first to links[k].second.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "balancer/load_graph.h"

namespace drift::balance {

struct Arc {
  std::size_t to = 0;    // the neighbour
  std::size_t link = 0;  // index into BalanceProblem::links
  double sign = 1;       // +1 if a flow on the link counts as leaving this node, else -1
};

struct BalanceProblem {
  std::vector<double> load;        // >= 0
  std::vector<double> capacity;    // > 0
  std::vector<bool> has_capacity;  // false where the caller's capacity was <= 0 or not finite
  std::vector<std::pair<std::size_t, std::size_t>> links;  // distinct, first < second
  std::vector<std::vector<Arc>> adj;                       // per node, by ascending neighbour

  // Sanitizes (see strategy.h): negative or non-finite load -> 0; invalid capacity -> 1e-9 of the
  // largest valid one (1e-9 if none). `unit_capacity`: every valid capacity taken as 1.
  static BalanceProblem from(const LoadGraph& graph, bool unit_capacity);

  std::size_t size() const { return load.size(); }
  double total_load() const;
};

// U_avg / U_max of `load` (one per node) over the problem's capacities; 1 when every load is 0.
// A node without capacity counts only while it holds load, as in efficiency(nodes).
double efficiency(const BalanceProblem& problem, const std::vector<double>& load);

// Nodes reachable from each other, each component ascending, components by smallest member.
std::vector<std::vector<std::size_t>> components(const BalanceProblem& problem);

}  // namespace drift::balance
