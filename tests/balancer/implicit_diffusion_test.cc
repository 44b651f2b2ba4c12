// Seed 000 Figure 1, heterogeneous implicit diffusion: one step checked by hand, α from eff_min,
// the Jacobi sweep count m, and the net link flows it books.
#include "balancer/implicit_diffusion.h"

#include <gtest/gtest.h>

#include <cmath>

#include "balancer/link_flows.h"

namespace drift::balance {
namespace {

BalanceProblem problem(LoadGraph g) { return BalanceProblem::from(g, false); }

TEST(ImplicitDiffusionTest, AlphaIsOneMinusEffMinUnlessGiven) {
  StrategyParams p;
  p.eff_min = 0.9;
  EXPECT_DOUBLE_EQ(diffusion_alpha(p), 1 - 0.9);
  p.alpha = 0.3;
  EXPECT_DOUBLE_EQ(diffusion_alpha(p), 0.3);
}

TEST(ImplicitDiffusionTest, AlphaIsClampedIntoItsRange) {
  StrategyParams p;
  p.eff_min = 1.0;  // α = 0 would need infinitely many sweeps
  EXPECT_DOUBLE_EQ(diffusion_alpha(p), 0.01);
  p.alpha = 5;
  EXPECT_DOUBLE_EQ(diffusion_alpha(p), 0.99);
  p.alpha = -1;  // not given: from eff_min
  p.eff_min = 0.8;
  EXPECT_DOUBLE_EQ(diffusion_alpha(p), 0.2);
  p.alpha = std::nan("");
  EXPECT_DOUBLE_EQ(diffusion_alpha(p), 0.2);
}

TEST(ImplicitDiffusionTest, OneStepOfFigureOneByHand) {
  // Two nodes of capacity 1 and 3, loads 8 and 0, α = 0.2:
  //   D_0 = 1 + 0.2 * 3/4 = 1.15, T_01 = 0.2 * 1/4 = 0.05
  //   D_1 = 1 + 0.2 * 1/4 = 1.05, T_10 = 0.2 * 3/4 = 0.15
  //   m = ceil(ln 0.2 / ln max(0.05/1.15, 0.15/1.05)) = ceil(0.818) = 1, so L^(m-1) = L^(0)
  //   ΔL_01 = T_01/D_0 (C_1/C_0 L_0 - L_1) = 0.05/1.15 * 24 = 1.043478...
  //   ΔL_10 = T_10/D_1 (C_0/C_1 L_1 - L_0) = 0.15/1.05 * -8 = -1.142857...
  // Net flow 0 -> 1: (ΔL_01 - ΔL_10) / 2.
  const BalanceProblem p = problem(LoadGraph{{{0, 8, 1}, {1, 0, 3}}, {{0, 1}}});
  StrategyParams params;
  params.alpha = 0.2;
  params.eff_min = 0.99;
  params.max_sweeps = 1;
  EXPECT_EQ(jacobi_sweeps(p, 0.2), 1);
  const LinkFlows flows = implicit_diffusion(p, params);
  ASSERT_EQ(flows.size(), 1u);
  EXPECT_NEAR(flows[0], (0.05 / 1.15 * 24 + 0.15 / 1.05 * 8) / 2, 1e-12);
}

TEST(ImplicitDiffusionTest, SweepCountFollowsTheFigureForEqualCapacities) {
  // Ring, all capacities equal: D = 1 + α, Σ T = α, ρ = α / (1 + α).
  std::vector<NodeLoad> nodes(8, NodeLoad{0, 1, 2});
  const BalanceProblem p = problem(LoadGraph::ring(nodes));
  for (double alpha : {0.01, 0.1, 0.5, 0.9}) {
    const double rho = alpha / (1 + alpha);
    EXPECT_EQ(jacobi_sweeps(p, alpha), static_cast<int>(std::ceil(std::log(alpha) / std::log(rho))))
        << alpha;
  }
  // A 40-clique: ρ = 39α/2 / (1 + 39α/2) is close to 1 for α = 0.99.
  const BalanceProblem clique = problem(LoadGraph::complete(std::vector<NodeLoad>(40, nodes[0])));
  EXPECT_EQ(jacobi_sweeps(clique, 0.5),
            static_cast<int>(std::ceil(std::log(0.5) / std::log(9.75 / 10.75))));
}

TEST(ImplicitDiffusionTest, SweepCountIsFiniteWhereTheFiguresBoundReachesOne) {
  // A fast hub with many slow neighbours: the hub's row D^-1 Σ T is 20 * 0.9 * 39/40 / (1 + 0.9 *
  // 20/40) > 1, so ln ρ >= 0 in the figure's formula; the column bound still gives a finite m.
  std::vector<NodeLoad> nodes{{0, 100, 39}};
  for (int i = 0; i < 20; ++i) nodes.push_back({0, 0, 1});
  const BalanceProblem p = problem(LoadGraph::star(nodes));
  const int m = jacobi_sweeps(p, 0.9);
  EXPECT_GE(m, 1);
  EXPECT_LE(m, 10);
  StrategyParams params;
  params.alpha = 0.9;
  params.eff_min = 0.99;
  const LinkFlows flows = implicit_diffusion(p, params);
  for (double f : flows) EXPECT_GT(f, 0) << "the hub sends to every neighbour";
}

TEST(ImplicitDiffusionTest, OuterLoopStopsAtEffMin) {
  const LoadGraph g = LoadGraph::ring({{0, 90, 1}, {1, 0, 1}, {2, 0, 1}, {3, 0, 1}});
  StrategyParams params;
  params.alpha = 0.1;
  double previous = 0;
  for (double eff_min : {0.5, 0.8, 0.95}) {
    params.eff_min = eff_min;
    const BalanceProblem p = problem(g);
    const auto after = loads_after(p, implicit_diffusion(p, params));
    std::vector<NodeLoad> nodes = g.nodes;
    for (std::size_t i = 0; i < nodes.size(); ++i) nodes[i].load = after[i];
    const double eff = efficiency(nodes);
    EXPECT_GE(eff, eff_min - 0.05) << "roughly there: the virtual loads are what stops it";
    EXPECT_GT(eff, previous) << "a higher eff_min runs more steps";
    previous = eff;
  }
}

TEST(ImplicitDiffusionTest, MaxSweepsBoundsTheOuterLoop) {
  const BalanceProblem p = problem(LoadGraph::ring({{0, 90, 1}, {1, 0, 1}, {2, 0, 1}}));
  StrategyParams params;
  params.alpha = 0.1;
  params.eff_min = 0.999;
  params.max_sweeps = 1;
  const double one = implicit_diffusion(p, params)[0];
  params.max_sweeps = 3;
  const double three = implicit_diffusion(p, params)[0];
  EXPECT_GT(three, one);
  params.max_sweeps = 0;  // at least one
  EXPECT_DOUBLE_EQ(implicit_diffusion(p, params)[0], one);
}

}  // namespace
}  // namespace drift::balance
