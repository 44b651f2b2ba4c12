#include "balancer/link_flows.h"

#include <algorithm>
#include <cmath>

namespace drift::balance {
namespace {

constexpr double kNegligibleFlow = 1e-12;  // of the total load
constexpr double kFlowOrderSlack = 1e-12;  // relative, well inside strategy.h's promised 1e-9
constexpr int kMaxOrderPasses = 1000;

}  // namespace

std::vector<double> loads_after(const BalanceProblem& problem, const LinkFlows& flows) {
  std::vector<double> load = problem.load;
  for (std::size_t k = 0; k < problem.links.size(); ++k) {
    load[problem.links[k].first] -= flows[k];
    load[problem.links[k].second] += flows[k];
  }
  return load;
}

// Gauss-Seidel over the links: a flow whose receiver ends above its sender gives back what
// evens the two out (or all of it). Amounts only shrink, so the passes settle; the pass limit
// is a backstop that the tests never reach.
void keep_order(const BalanceProblem& problem, LinkFlows& flows) {
  std::vector<double> load = loads_after(problem, flows);
  const auto& cap = problem.capacity;
  for (int pass = 0; pass < kMaxOrderPasses; ++pass) {
    bool changed = false;
    for (std::size_t k = 0; k < problem.links.size(); ++k) {
      if (flows[k] == 0) continue;
      auto [s, r] = problem.links[k];
      if (flows[k] < 0) std::swap(s, r);
      const double us = load[s] / cap[s], ur = load[r] / cap[r];
      if (ur <= us + kFlowOrderSlack * std::max(us, ur)) continue;
      const double even = (cap[s] * load[r] - cap[r] * load[s]) / (cap[s] + cap[r]);
      const double back = std::min(std::abs(flows[k]), even);
      flows[k] -= std::copysign(back, flows[k]);
      load[s] += back;
      load[r] -= back;
      changed = true;
    }
    if (!changed) return;
  }
}

std::vector<Transfer> to_transfers(const BalanceProblem& problem, LinkFlows flows) {
  const double negligible = kNegligibleFlow * problem.total_load();
  for (double& f : flows) {
    if (!(std::abs(f) > negligible)) f = 0;
  }
  keep_order(problem, flows);
  std::vector<Transfer> out;
  for (std::size_t k = 0; k < problem.links.size(); ++k) {
    const auto [a, b] = problem.links[k];
    if (flows[k] > negligible) out.push_back({a, b, flows[k]});
    if (flows[k] < -negligible) out.push_back({b, a, -flows[k]});
  }
  return out;
}

}  // namespace drift::balance
