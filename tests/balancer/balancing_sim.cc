#include "tests/balancer/balancing_sim.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace drift::balance::sim {
namespace {

// std::mt19937's sequence is fixed by the standard; the distributions are not, so map by hand.
std::size_t below(std::mt19937& rng, std::size_t n) { return rng() % n; }

double total(const LoadGraph& g) {
  double sum = 0;
  for (const auto& n : g.nodes) sum += n.load;
  return sum;
}

// What the strategy sees: homogeneous gets CPU seconds per step with capacity 1.
std::vector<NodeLoad> as_seen(Strategy strategy, std::vector<NodeLoad> nodes) {
  if (strategy != Strategy::kHomogeneous) return nodes;
  for (auto& n : nodes) n = {n.id, n.load / n.capacity, 1.0};
  return nodes;
}

// Turns the strategy's amount into the load that leaves nodes[from].
double real_amount(Strategy strategy, const LoadGraph& g, const Transfer& t) {
  return strategy == Strategy::kHomogeneous ? t.amount * g.nodes[t.from].capacity : t.amount;
}

void apply_moves(LoadGraph& g, const std::vector<Transfer>& transfers) {
  for (const auto& t : transfers) {
    g.nodes[t.from].load -= t.amount;
    g.nodes[t.to].load += t.amount;
  }
}

}  // namespace

const std::vector<double>& testbed_speeds() {
  static const std::vector<double> speeds{1.0, 4.4, 6.0, 6.0, 6.0, 6.8, 8.6, 13.0, 38.0, 39.0};
  return speeds;
}

std::vector<NodeLoad> testbed_nodes(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<NodeLoad> nodes(n);
  for (std::size_t i = 0; i < n; ++i) {
    nodes[i].id = static_cast<std::uint32_t>(100 + i);
    nodes[i].capacity = testbed_speeds()[i % testbed_speeds().size()];
    nodes[i].load = 10.0 + static_cast<double>(below(rng, 90));
    if (below(rng, 5) == 0) nodes[i].load *= 20;
  }
  for (std::size_t i = n; i > 1; --i)
    std::swap(nodes[i - 1].capacity, nodes[below(rng, i)].capacity);
  return nodes;
}

LoadGraph random_connected(std::vector<NodeLoad> nodes, std::size_t extra, std::uint32_t seed) {
  std::mt19937 rng(seed);
  LoadGraph g{std::move(nodes), {}};
  const std::size_t n = g.nodes.size();
  for (std::size_t i = 1; i < n; ++i) g.edges.emplace_back(below(rng, i), i);
  for (std::size_t k = 0; k < extra && n > 1; ++k) {
    const std::size_t a = below(rng, n), b = below(rng, n);
    if (a != b) g.edges.emplace_back(a, b);
  }
  return g;
}

LoadGraph id_ring(std::vector<NodeLoad> nodes, std::size_t per_side) {
  LoadGraph g{std::move(nodes), {}};
  const std::size_t n = g.nodes.size();
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t d = 1; d <= per_side && d < n; ++d) g.edges.emplace_back(i, (i + d) % n);
  }
  return g;
}

std::vector<Transfer> round(Strategy strategy, Mode mode, LoadGraph& graph,
                            const StrategyParams& params) {
  std::vector<Transfer> moves;
  if (mode == Mode::kGlobal) {
    const LoadGraph seen{as_seen(strategy, graph.nodes), graph.edges};
    moves = compute_transfers(strategy, seen, params);
  } else {
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) {
      std::vector<std::size_t> members{i};
      for (std::size_t j : graph.neighbours(i)) members.push_back(j);
      std::vector<NodeLoad> group;
      group.reserve(members.size());
      for (std::size_t j : members) group.push_back(graph.nodes[j]);
      for (const auto& t : plan_for_self(strategy, as_seen(strategy, group), 0, params)) {
        moves.push_back({i, members[t.to], t.amount});
      }
    }
  }
  for (auto& t : moves) t.amount = real_amount(strategy, graph, t);
  apply_moves(graph, moves);
  return moves;
}

Outcome run(Strategy strategy, Mode mode, LoadGraph graph, const StrategyParams& params,
            double target_efficiency, int max_rounds) {
  Outcome out;
  for (int r = 0; r <= max_rounds; ++r) {
    out.efficiency = efficiency(graph.nodes);
    if (out.efficiency >= target_efficiency) {
      out.rounds = r;
      return out;
    }
    if (r == max_rounds) break;
    const double before = total(graph);
    const auto moves = round(strategy, mode, graph, params);
    out.load_drift = std::max(out.load_drift, std::abs(total(graph) - before) / before);
    if (mode == Mode::kGlobal && strategy != Strategy::kHomogeneous) {
      for (const auto& t : moves) {
        const double us = utilization(graph.nodes[t.from]), ur = utilization(graph.nodes[t.to]);
        if (ur > us * (1 + 1e-9)) out.order_kept = false;
      }
    }
  }
  return out;
}

}  // namespace drift::balance::sim
