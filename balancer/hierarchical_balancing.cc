#include "balancer/hierarchical_balancing.h"

#include <algorithm>
#include <limits>

namespace drift::balance {
namespace {

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

// Breadth-first from `start` over links inside `in_part`; appends to `order`, marks `seen`.
void bfs_within(const BalanceProblem& p, std::size_t start, const std::vector<bool>& in_part,
                std::vector<bool>& seen, std::vector<std::size_t>& order) {
  const std::size_t first = order.size();
  order.push_back(start);
  seen[start] = true;
  for (std::size_t head = first; head < order.size(); ++head) {
    for (const Arc& arc : p.adj[order[head]]) {
      if (in_part[arc.to] && !seen[arc.to]) {
        seen[arc.to] = true;
        order.push_back(arc.to);
      }
    }
  }
}

class Bisector {
 public:
  Bisector(const BalanceProblem& p) : p_(p), load_(p.load), flows_(p.links.size(), 0.0) {}

  void balance_component(const std::vector<std::size_t>& members) {
    double l = 0, c = 0;
    for (std::size_t i : members) {
      l += load_[i];
      c += p_.capacity[i];
    }
    target_ = l / c;
    balance(members);
  }

  LinkFlows take_flows() { return std::move(flows_); }

 private:
  void balance(const std::vector<std::size_t>& part) {
    if (part.size() < 2) return;
    const std::vector<std::size_t> order = bisection_order(p_, part);
    const auto middle = order.begin() + static_cast<std::ptrdiff_t>((order.size() + 1) / 2);
    const std::vector<std::size_t> first(order.begin(), middle), second(middle, order.end());
    double l1 = 0, c1 = 0, l2 = 0, c2 = 0;
    for (std::size_t i : first) {
      l1 += load_[i];
      c1 += p_.capacity[i];
    }
    for (std::size_t i : second) {
      l2 += load_[i];
      c2 += p_.capacity[i];
    }
    const double delta = (c2 * l1 - c1 * l2) / (c1 + c2);
    if (delta > 0) route(first, second, delta);
    if (delta < 0) route(second, first, -delta);
    balance(first);
    balance(second);
  }

  void route(const std::vector<std::size_t>& from, const std::vector<std::size_t>& to,
             double amount) {
    auto sources = sorted_by_utilization(from, /*descending=*/true);
    auto sinks = sorted_by_utilization(to, /*descending=*/false);
    std::size_t s = 0, r = 0;
    while (amount > 0 && s < sources.size() && r < sinks.size()) {
      const std::size_t src = sources[s], dst = sinks[r];
      const double excess = load_[src] - p_.capacity[src] * target_;
      const double deficit = p_.capacity[dst] * target_ - load_[dst];
      if (!(excess > 0)) {
        ++s;
        continue;
      }
      if (!(deficit > 0)) {
        ++r;
        continue;
      }
      const double piece = std::min({amount, excess, deficit});
      move_along_path(src, dst, piece);
      amount -= piece;
      if (piece == excess) ++s;
      if (piece == deficit) ++r;
    }
  }

  std::vector<std::size_t> sorted_by_utilization(std::vector<std::size_t> nodes,
                                                 bool descending) const {
    std::stable_sort(nodes.begin(), nodes.end(), [&](std::size_t a, std::size_t b) {
      const double ua = load_[a] / p_.capacity[a], ub = load_[b] / p_.capacity[b];
      return descending ? ua > ub : ua < ub;
    });
    return nodes;
  }

  void move_along_path(std::size_t src, std::size_t dst, double amount) {
    std::vector<std::size_t> parent_arc_owner(p_.size(), kNone);
    std::vector<const Arc*> parent_arc(p_.size(), nullptr);
    std::vector<std::size_t> queue{src};
    parent_arc_owner[src] = src;
    for (std::size_t head = 0; head < queue.size() && parent_arc_owner[dst] == kNone; ++head) {
      const std::size_t v = queue[head];
      for (const Arc& arc : p_.adj[v]) {
        if (parent_arc_owner[arc.to] != kNone) continue;
        parent_arc_owner[arc.to] = v;
        parent_arc[arc.to] = &arc;
        queue.push_back(arc.to);
      }
    }
    if (parent_arc_owner[dst] == kNone) return;  // other component: never asked by the caller
    for (std::size_t v = dst; v != src; v = parent_arc_owner[v]) {
      add_flow(flows_, *parent_arc[v], amount);
    }
    load_[src] -= amount;
    load_[dst] += amount;
  }

  const BalanceProblem& p_;
  std::vector<double> load_;
  LinkFlows flows_;
  double target_ = 0;  // the component's final utilization
};

}  // namespace

std::vector<std::size_t> bisection_order(const BalanceProblem& p,
                                         const std::vector<std::size_t>& part) {
  std::vector<bool> in_part(p.size(), false);
  for (std::size_t i : part) in_part[i] = true;
  std::vector<std::size_t> members = part;
  std::sort(members.begin(), members.end());

  std::vector<bool> seen(p.size(), false);
  std::vector<std::size_t> probe;
  bfs_within(p, members.front(), in_part, seen, probe);
  std::fill(seen.begin(), seen.end(), false);

  std::vector<std::size_t> order;
  bfs_within(p, probe.back(), in_part, seen, order);
  for (std::size_t i : members) {
    if (!seen[i]) bfs_within(p, i, in_part, seen, order);
  }
  return order;
}

LinkFlows hierarchical_balancing(const BalanceProblem& problem) {
  Bisector bisector(problem);
  for (const auto& members : components(problem)) bisector.balance_component(members);
  return bisector.take_flows();
}

}  // namespace drift::balance
