#include "balancer/balance_problem.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace drift::balance {
namespace {

constexpr double kNoCapacityFraction = 1e-9;

bool valid_capacity(double c) { return c > 0 && std::isfinite(c); }

}  // namespace

BalanceProblem BalanceProblem::from(const LoadGraph& graph, bool unit_capacity) {
  BalanceProblem p;
  const std::size_t n = graph.nodes.size();
  double max_capacity = 0;
  for (const auto& node : graph.nodes) {
    if (valid_capacity(node.capacity)) {
      max_capacity = std::max(max_capacity, unit_capacity ? 1.0 : node.capacity);
    }
  }
  const double none = kNoCapacityFraction * (max_capacity > 0 ? max_capacity : 1.0);
  for (const auto& node : graph.nodes) {
    const bool valid = valid_capacity(node.capacity);
    p.load.push_back(node.load > 0 && std::isfinite(node.load) ? node.load : 0.0);
    p.capacity.push_back(!valid ? none : unit_capacity ? 1.0 : node.capacity);
    p.has_capacity.push_back(valid);
  }

  std::set<std::pair<std::size_t, std::size_t>> seen;
  p.adj.resize(n);
  for (auto [a, b] : graph.edges) {
    if (a == b || a >= n || b >= n) continue;
    if (a > b) std::swap(a, b);
    if (!seen.insert({a, b}).second) continue;
    const std::size_t k = p.links.size();
    p.links.emplace_back(a, b);
    p.adj[a].push_back({b, k, +1});
    p.adj[b].push_back({a, k, -1});
  }
  for (auto& arcs : p.adj) {
    std::sort(arcs.begin(), arcs.end(), [](const Arc& x, const Arc& y) { return x.to < y.to; });
  }
  return p;
}

double BalanceProblem::total_load() const {
  double sum = 0;
  for (double l : load) sum += l;
  return sum;
}

double efficiency(const BalanceProblem& problem, const std::vector<double>& load) {
  double sum = 0, max = 0;
  std::size_t counted = 0;
  for (std::size_t i = 0; i < load.size(); ++i) {
    if (!problem.has_capacity[i] && !(load[i] > 0)) continue;
    const double u = load[i] / problem.capacity[i];
    sum += u;
    max = std::max(max, u);
    ++counted;
  }
  if (max <= 0) return 1;
  return sum / static_cast<double>(counted) / max;
}

std::vector<std::vector<std::size_t>> components(const BalanceProblem& problem) {
  const std::size_t n = problem.size();
  std::vector<bool> seen(n, false);
  std::vector<std::vector<std::size_t>> out;
  for (std::size_t start = 0; start < n; ++start) {
    if (seen[start]) continue;
    std::vector<std::size_t> members{start};
    seen[start] = true;
    for (std::size_t head = 0; head < members.size(); ++head) {
      for (const Arc& arc : problem.adj[members[head]]) {
        if (!seen[arc.to]) {
          seen[arc.to] = true;
          members.push_back(arc.to);
        }
      }
    }
    std::sort(members.begin(), members.end());
    out.push_back(std::move(members));
  }
  return out;
}

}  // namespace drift::balance
