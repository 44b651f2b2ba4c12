#include "balancer/strategy.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <utility>

#include "balancer/balance_problem.h"
#include "balancer/dimension_exchange.h"
#include "balancer/hierarchical_balancing.h"
#include "balancer/implicit_diffusion.h"
#include "balancer/link_flows.h"
#include "balancer/receiver_initiated.h"

namespace drift::balance {
namespace {

constexpr std::array<std::pair<Strategy, const char*>, 6> kNames{{
    {Strategy::kNone, "none"},
    {Strategy::kHomogeneous, "homogeneous"},
    {Strategy::kDiffusion, "diffusion"},
    {Strategy::kGde, "gde"},
    {Strategy::kHbm, "hbm"},
    {Strategy::kRid, "rid"},
}};

LinkFlows ideal_flows(Strategy strategy, const BalanceProblem& p, const StrategyParams& params) {
  switch (strategy) {
    case Strategy::kHomogeneous:
    case Strategy::kDiffusion:
      return implicit_diffusion(p, params);
    case Strategy::kGde:
      return dimension_exchange(p, params);
    case Strategy::kHbm:
      return hierarchical_balancing(p);
    case Strategy::kRid:
      return receiver_initiated(p, params);
    case Strategy::kNone:
      break;
  }
  return LinkFlows(p.links.size(), 0.0);
}

}  // namespace

Strategy parse_strategy(const std::string& name) {
  for (const auto& [strategy, text] : kNames) {
    if (name == text) return strategy;
  }
  throw std::invalid_argument("unknown balancing strategy '" + name +
                              "' (expected none|homogeneous|diffusion|gde|hbm|rid)");
}

std::string to_string(Strategy strategy) {
  for (const auto& [s, text] : kNames) {
    if (s == strategy) return text;
  }
  return "?";
}

std::vector<Transfer> compute_transfers(Strategy strategy, const LoadGraph& graph,
                                        const StrategyParams& params) {
  if (strategy == Strategy::kNone || graph.nodes.size() < 2) return {};
  const BalanceProblem p = BalanceProblem::from(graph, strategy == Strategy::kHomogeneous);
  if (std::none_of(p.has_capacity.begin(), p.has_capacity.end(), [](bool b) { return b; })) {
    return {};
  }
  if (efficiency(p, p.load) >= params.eff_min) return {};
  return to_transfers(p, ideal_flows(strategy, p, params));
}

}  // namespace drift::balance
