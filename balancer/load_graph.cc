#include "balancer/load_graph.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace drift::balance {

LoadGraph LoadGraph::star(std::vector<NodeLoad> nodes) {
  LoadGraph g{std::move(nodes), {}};
  for (std::size_t i = 1; i < g.nodes.size(); ++i) g.edges.emplace_back(0, i);
  return g;
}

LoadGraph LoadGraph::complete(std::vector<NodeLoad> nodes) {
  LoadGraph g{std::move(nodes), {}};
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    for (std::size_t j = i + 1; j < g.nodes.size(); ++j) g.edges.emplace_back(i, j);
  }
  return g;
}

LoadGraph LoadGraph::ring(std::vector<NodeLoad> nodes) {
  LoadGraph g{std::move(nodes), {}};
  const std::size_t n = g.nodes.size();
  for (std::size_t i = 0; i + 1 < n; ++i) g.edges.emplace_back(i, i + 1);
  if (n >= 3) g.edges.emplace_back(n - 1, 0);
  return g;
}

LoadGraph LoadGraph::mesh(std::vector<NodeLoad> nodes, std::size_t width) {
  LoadGraph g{std::move(nodes), {}};
  const std::size_t n = g.nodes.size();
  if (width == 0) width = std::max<std::size_t>(n, 1);
  for (std::size_t i = 0; i < n; ++i) {
    if ((i % width) + 1 < width && i + 1 < n) g.edges.emplace_back(i, i + 1);
    if (i + width < n) g.edges.emplace_back(i, i + width);
  }
  return g;
}

std::vector<std::size_t> LoadGraph::neighbours(std::size_t i) const {
  std::vector<std::size_t> out;
  for (const auto& [a, b] : edges) {
    if (a == b || a >= nodes.size() || b >= nodes.size()) continue;
    if (a == i) out.push_back(b);
    if (b == i) out.push_back(a);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

double utilization(double load, double capacity) {
  if (!(load > 0)) return 0;
  if (!(capacity > 0)) return std::numeric_limits<double>::infinity();
  return load / capacity;
}

double utilization(const NodeLoad& n) {
  const double u = utilization(n.load, n.capacity);
  return n.load > 0 && n.floor > 0 ? u + n.floor : u;
}

NodeLoad receiving(const NodeLoad& receiver, const NodeLoad& sender, double amount) {
  NodeLoad out = holding(receiver, receiver.load + amount);
  if (receiver.load > 0 || !(amount > 0) || !(sender.load > 0) || !(sender.floor > 0) ||
      !(sender.capacity > 0) || !(receiver.capacity > 0)) {
    return out;
  }
  const double moved = std::min(1.0, amount / sender.load);
  const double carried = sender.floor * moved * sender.capacity / receiver.capacity;
  if (std::isfinite(carried)) out.floor = std::max(out.floor, carried);
  return out;
}

bool sits_out(const NodeLoad& n, double level) {
  return !(n.load > 0) && n.floor > 0 && n.floor >= level;
}

double efficiency(const std::vector<NodeLoad>& nodes) {
  double peak = 0;
  for (const auto& n : nodes) peak = std::max(peak, utilization(n));
  double sum = 0, max = 0;
  std::size_t counted = 0;
  for (const auto& n : nodes) {
    if (!(n.capacity > 0) && !(n.load > 0)) continue;  // not part of the pool
    if (sits_out(n, peak)) continue;
    const double u = utilization(n);
    sum += u;
    max = std::max(max, u);
    ++counted;
  }
  if (max == 0) return 1;
  if (std::isinf(max)) return 0;
  return sum / static_cast<double>(counted) / max;
}

}  // namespace drift::balance
