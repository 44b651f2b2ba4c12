#include "balancer/receiver_initiated.h"

#include <algorithm>

namespace drift::balance {
namespace {

double average_utilization(const std::vector<double>& load, const std::vector<double>& capacity,
                           const std::vector<std::size_t>& domain) {
  double l = 0, c = 0;
  for (std::size_t i : domain) {
    l += load[i];
    c += capacity[i];
  }
  return l / c;
}

struct Demand {
  std::size_t receiver = 0;
  const Arc* arc = nullptr;  // the sender's arc to the receiver
  double amount = 0;
  double receiver_avg = 0;  // u_avg of the receiver's domain: the receiver ends at or below it
};

// A sender serves its askers lowest domain average first, each as far as it stays at or above
// that receiver's average afterwards (so at or above the receiver, seed 001), and stops at the
// first it cannot serve in full. Returns what it gives each, in `asks` order.
std::vector<double> serve(double load, double capacity, const std::vector<Demand>& asks) {
  std::vector<std::size_t> order(asks.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return asks[a].receiver_avg < asks[b].receiver_avg;
  });
  std::vector<double> given(asks.size(), 0.0);
  for (std::size_t k : order) {
    const double room = load - capacity * asks[k].receiver_avg;
    given[k] = std::clamp(room, 0.0, asks[k].amount);
    load -= given[k];
    if (given[k] < asks[k].amount) break;
  }
  return given;
}

}  // namespace

std::vector<double> rid_demands(const std::vector<double>& load,
                                const std::vector<double>& capacity,
                                const std::vector<std::size_t>& domain, std::size_t receiver) {
  std::vector<double> d(domain.size(), 0.0);
  const double u_avg = average_utilization(load, capacity, domain);
  const double want = capacity[receiver] * u_avg - load[receiver];
  if (!(want > 0)) return d;
  double h_sum = 0;
  for (std::size_t k = 0; k < domain.size(); ++k) {
    if (domain[k] == receiver) continue;
    d[k] = std::max(load[domain[k]] - capacity[domain[k]] * u_avg, 0.0);
    h_sum += d[k];
  }
  for (double& x : d) x = h_sum > 0 ? want * x / h_sum : 0.0;
  return d;
}

LinkFlows receiver_initiated(const BalanceProblem& p, const StrategyParams& params) {
  const std::size_t n = p.size();
  std::vector<double> l = p.load;
  LinkFlows flows(p.links.size(), 0.0);
  for (int sweep = 0; sweep < std::max(params.max_sweeps, 1); ++sweep) {
    if (efficiency(p, l) >= params.eff_min) break;
    std::vector<std::vector<Demand>> asked(n);  // per sender
    for (std::size_t r = 0; r < n; ++r) {
      std::vector<std::size_t> domain{r};
      for (const Arc& arc : p.adj[r]) domain.push_back(arc.to);
      const std::vector<double> d = rid_demands(l, p.capacity, domain, r);
      const double u_avg = average_utilization(l, p.capacity, domain);
      for (std::size_t k = 1; k < domain.size(); ++k) {
        if (!(d[k] > 0)) continue;
        const std::size_t i = domain[k];
        const auto back =
            std::find_if(p.adj[i].begin(), p.adj[i].end(), [r](const Arc& a) { return a.to == r; });
        asked[i].push_back({r, &*back, d[k], u_avg});
      }
    }
    std::vector<double> next = l;
    for (std::size_t i = 0; i < n; ++i) {
      const std::vector<double> given = serve(l[i], p.capacity[i], asked[i]);
      for (std::size_t k = 0; k < given.size(); ++k) {
        add_flow(flows, *asked[i][k].arc, given[k]);
        next[i] -= given[k];
        next[asked[i][k].receiver] += given[k];
      }
    }
    l = std::move(next);
  }
  return flows;
}

}  // namespace drift::balance
