// How Figure 1 is read here.
//
// One implicit Euler step of heat diffusion on utilization, with link conductance
// C_i C_j / (C_i + C_j) and time step α, is the linear system
//     D_i L_i' - Σ_j T_ij L_j' = L_i          D_i = 1 + α Σ_j C_j / (C_i + C_j)
//                                             T_ij = α C_i / (C_i + C_j)
// whose exact flow i -> j is α (C_j L_i' - C_i L_j') / (C_i + C_j). Figure 1 solves it with m
// Jacobi sweeps L_i^(k) = D_i^-1 (L_i^(0) + Σ_j T_ij L_j^(k-1)) and books on each link
//     ΔL_ij += D_i^-1 T_ij (C_j / C_i L_i^(0) - L_j^(m-1)),
// which is exactly node i's own account: Σ_j of it equals L_i^(0) - L_i^(m). The outer loop
// repeats such steps on the updated loads L_i := L_i^(m) while eff < eff_min (bounded here by
// max_sweeps), accumulating ΔL. Interpretation choices:
// - Every node's figure runs on the same data in lock-step, so all nodes are computed together
//   and eff is that of the whole graph's current (virtual) loads.
// - i's ΔL_ij and j's ΔL_ji are two estimates of one link's flow that agree only in the limit;
//   the net transfer on the link is their mean, (ΔL_ij - ΔL_ji) / 2, which moves load and so
//   conserves it exactly (the truncated Jacobi loads themselves need not).
// - m = ceil(ln α / ln ρ) with ρ the figure's max_i D_i^-1 Σ_j T_ij. That row bound reaches 1 on
//   a fast node with many slow neighbours (ln ρ >= 0: no m); the column bound
//   max_j (D_j - 1) / D_j, the contraction in the D-weighted 1-norm, is always < 1 and equals the
//   row bound for equal capacities. The smaller of the two is used.
// - α is both the accuracy (in m) and the implicit step (in D, T), as in the figure.
#include "balancer/implicit_diffusion.h"

#include <algorithm>
#include <cmath>

namespace drift::balance {
namespace {

constexpr int kMaxJacobiSweeps = 1000;

struct Coefficients {
  std::vector<double> d;               // D_i
  std::vector<std::vector<double>> t;  // T_ij, in adj[i] order
};

Coefficients coefficients(const BalanceProblem& p, double alpha) {
  Coefficients c;
  c.d.assign(p.size(), 1.0);
  c.t.resize(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    for (const Arc& arc : p.adj[i]) {
      const double ci = p.capacity[i], cj = p.capacity[arc.to];
      c.d[i] += alpha * cj / (ci + cj);
      c.t[i].push_back(alpha * ci / (ci + cj));
    }
  }
  return c;
}

int sweeps_for(const BalanceProblem& p, const Coefficients& c, double alpha) {
  double row = 0, column = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    double sum = 0;
    for (double t : c.t[i]) sum += t;
    row = std::max(row, sum / c.d[i]);
    column = std::max(column, (c.d[i] - 1) / c.d[i]);
  }
  const double rho = std::min(row, column);
  if (!(rho > 0)) return 1;
  const double m = std::ceil(std::log(alpha) / std::log(rho));
  return static_cast<int>(std::clamp(m, 1.0, static_cast<double>(kMaxJacobiSweeps)));
}

}  // namespace

double diffusion_alpha(const StrategyParams& params) {
  const double alpha = params.alpha > 0 ? params.alpha : 1 - params.eff_min;
  if (std::isnan(alpha)) return 0.1;  // eff_min NaN as well
  return std::clamp(alpha, 0.01, 0.99);
}

int jacobi_sweeps(const BalanceProblem& problem, double alpha) {
  return sweeps_for(problem, coefficients(problem, alpha), alpha);
}

LinkFlows implicit_diffusion(const BalanceProblem& p, const StrategyParams& params) {
  const std::size_t n = p.size();
  const double alpha = diffusion_alpha(params);
  const Coefficients c = coefficients(p, alpha);
  const int m = sweeps_for(p, c, alpha);

  std::vector<std::vector<double>> delta(n);  // ΔL_ij in adj[i] order
  for (std::size_t i = 0; i < n; ++i) delta[i].assign(p.adj[i].size(), 0.0);

  std::vector<double> l = p.load, prev(n), next(n);
  for (int sweep = 0; sweep < std::max(params.max_sweeps, 1); ++sweep) {
    if (efficiency(p, l) >= params.eff_min) break;
    next = l;  // L^(0)
    for (int k = 1; k <= m; ++k) {
      prev.swap(next);  // prev = L^(k-1)
      for (std::size_t i = 0; i < n; ++i) {
        double sum = l[i];
        for (std::size_t a = 0; a < p.adj[i].size(); ++a) sum += c.t[i][a] * prev[p.adj[i][a].to];
        next[i] = sum / c.d[i];
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t a = 0; a < p.adj[i].size(); ++a) {
        const std::size_t j = p.adj[i][a].to;
        delta[i][a] += c.t[i][a] / c.d[i] * (p.capacity[j] / p.capacity[i] * l[i] - prev[j]);
      }
    }
    l = next;  // L^(m)
  }

  LinkFlows flows(p.links.size(), 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t a = 0; a < p.adj[i].size(); ++a) add_flow(flows, p.adj[i][a], delta[i][a] / 2);
  }
  return flows;
}

}  // namespace drift::balance
