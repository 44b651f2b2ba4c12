// A discrete balancing simulator for the balancer tests: the seed 000 testbed's speeds, graph
// families, and repeated rounds in the two ways the library is used, global (compute_transfers
// over the whole graph) and local (each node plans for itself over its neighbourhood, as driftd
// does). Deterministic: its own random numbers from a fixed seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <random>
#include <vector>

#include "balancer/load_graph.h"
#include "balancer/strategy.h"

namespace drift::balance {

// So that test failures print strategies by name.
inline void PrintTo(Strategy s, std::ostream* os) { *os << to_string(s); }

}  // namespace drift::balance

namespace drift::balance::sim {

// Relative speeds of the 10 machines of seed 000 Figure 2 (a spread of 39x).
const std::vector<double>& testbed_speeds();

// n nodes with the testbed speeds repeated and shuffled, and uneven loads (each node a random
// share, a few nodes much more), all from `seed`.
std::vector<NodeLoad> testbed_nodes(std::size_t n, std::uint32_t seed);

// A random spanning tree plus `extra` random links, from `seed`.
LoadGraph random_connected(std::vector<NodeLoad> nodes, std::size_t extra, std::uint32_t seed);

// driftd's local groups (node/membership/member_table.h): nodes on a ring by id, each linked to the
// `per_side` nearest on either side.
LoadGraph id_ring(std::vector<NodeLoad> nodes, std::size_t per_side);

enum class Mode { kGlobal, kLocal };

// One round. Global: compute_transfers over the graph. Local: from one snapshot, every node calls
// plan_for_self on its group (itself first, then its neighbours) and only its own sends are
// applied. Homogeneous runs as seed 000's experiment: CPU seconds per step (load / capacity) are
// passed as load with capacity 1, and moving s seconds away from a node moves s * its capacity.
std::vector<Transfer> round(Strategy strategy, Mode mode, LoadGraph& graph,
                            const StrategyParams& params);

struct Outcome {
  int rounds = -1;         // rounds until efficiency >= target; -1 if not within max_rounds
  double efficiency = 0;   // at the end
  double load_drift = 0;   // |total after - total before| / total before, worst round
  bool order_kept = true;  // global: every transfer ended with receiver U <= sender U
};

Outcome run(Strategy strategy, Mode mode, LoadGraph graph, const StrategyParams& params,
            double target_efficiency, int max_rounds);

// Every strategy that moves load.
inline constexpr Strategy kAll[] = {Strategy::kHomogeneous, Strategy::kDiffusion, Strategy::kGde,
                                    Strategy::kHbm, Strategy::kRid};

// Parameters that balance nearly exactly (the convergence suites' setting).
inline StrategyParams tight() {
  StrategyParams p;
  p.eff_min = 0.999;
  p.alpha = 0.1;
  return p;
}

}  // namespace drift::balance::sim
