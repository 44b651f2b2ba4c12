#include "balancer/dimension_exchange.h"

#include <algorithm>

namespace drift::balance {

std::vector<std::vector<std::size_t>> colour_links(const BalanceProblem& p) {
  std::vector<std::vector<bool>> used(p.size());  // used[node][colour]
  std::vector<std::vector<std::size_t>> colours;
  for (std::size_t k = 0; k < p.links.size(); ++k) {
    const auto [a, b] = p.links[k];
    std::size_t c = 0;
    while ((c < used[a].size() && used[a][c]) || (c < used[b].size() && used[b][c])) ++c;
    for (std::size_t node : {a, b}) {
      if (used[node].size() <= c) used[node].resize(c + 1, false);
      used[node][c] = true;
    }
    if (colours.size() <= c) colours.resize(c + 1);
    colours[c].push_back(k);
  }
  return colours;
}

LinkFlows dimension_exchange(const BalanceProblem& p, const StrategyParams& params) {
  const double lambda = params.lambda > 0 && params.lambda <= 1 ? params.lambda : 0.5;
  const auto colours = colour_links(p);
  std::vector<double> l = p.load;
  LinkFlows flows(p.links.size(), 0.0);
  for (int sweep = 0; sweep < std::max(params.max_sweeps, 1); ++sweep) {
    if (efficiency(p, l) >= params.eff_min) break;
    for (const auto& colour : colours) {
      for (std::size_t k : colour) {  // a matching: the order within a colour does not matter
        const auto [i, j] = p.links[k];
        const double move = exchange_step(l[i], p.capacity[i], l[j], p.capacity[j], lambda);
        l[i] -= move;
        l[j] += move;
        flows[k] += move;
      }
    }
  }
  return flows;
}

}  // namespace drift::balance
