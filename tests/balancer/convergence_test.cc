// Repeated balancing rounds drive every strategy to load proportional to capacity (efficiency
// >= 0.99), both as compute_transfers over the whole graph (global) and as driftd runs it, every
// node applying plan_for_self over itself and its neighbours from one snapshot (local). Load is
// conserved every round, and in global mode no receiver ends above its sender. The bounds are the
// rounds measured (in parentheses) with a little headroom; they document how fast each is.
#include <gtest/gtest.h>

#include <ostream>
#include <string>

#include "tests/balancer/balancing_sim.h"

namespace drift::balance::sim {
namespace {

constexpr double kTarget = 0.99;

// eff_min above the target: a local group stops at eff_min of its own, and the whole graph's
// efficiency settles lower than its groups' (see strategy_test's LocalGroupsStopAtTheirEffMin).
StrategyParams params() {
  StrategyParams p;
  p.eff_min = 0.999;
  p.alpha = 0.1;  // 1 - eff_min of driftd's default
  return p;
}

LoadGraph testbed_topology(const std::string& name) {
  if (name == "ring8") return LoadGraph::ring(testbed_nodes(8, 1));
  if (name == "ring16") return LoadGraph::ring(testbed_nodes(16, 2));
  if (name == "mesh4x4") return LoadGraph::mesh(testbed_nodes(16, 3), 4);
  if (name == "random10") return random_connected(testbed_nodes(10, 4), 5, 5);
  if (name == "random20") return random_connected(testbed_nodes(20, 6), 10, 7);
  if (name == "random30") return random_connected(testbed_nodes(30, 8), 15, 9);
  if (name == "random40") return random_connected(testbed_nodes(40, 10), 20, 11);
  if (name == "idring40") return id_ring(testbed_nodes(40, 12), 4);
  ADD_FAILURE() << "no topology " << name;
  return {};
}

// The same graph and loads on identical machines.
LoadGraph topology(const std::string& name, bool equal_capacities) {
  LoadGraph g = testbed_topology(name);
  if (equal_capacities) {
    for (auto& n : g.nodes) n.capacity = 1;
  }
  return g;
}

struct Case {
  Strategy strategy;
  Mode mode;
  const char* topology;
  int max_rounds;
  bool equal_capacities = false;
};

std::ostream& operator<<(std::ostream& os, const Case& c) {
  return os << to_string(c.strategy) << (c.mode == Mode::kGlobal ? "/global/" : "/local/")
            << c.topology << (c.equal_capacities ? "/equal" : "");
}

class ConvergenceTest : public ::testing::TestWithParam<Case> {};

TEST_P(ConvergenceTest, ReachesLoadProportionalToCapacity) {
  const Case& c = GetParam();
  const LoadGraph graph = topology(c.topology, c.equal_capacities);
  ASSERT_LT(efficiency(graph.nodes), 0.7) << "the start must be badly unbalanced";
  const Outcome out = run(c.strategy, c.mode, graph, params(), kTarget, c.max_rounds);
  EXPECT_GE(out.rounds, 0) << "efficiency only " << out.efficiency << " after " << c.max_rounds;
  EXPECT_LT(out.load_drift, 1e-12) << "load not conserved";
  EXPECT_TRUE(out.order_kept) << "a receiver ended above its sender";
  RecordProperty("rounds", out.rounds);
}

std::string name(const ::testing::TestParamInfo<Case>& info) {
  std::string s = to_string(info.param.strategy) +
                  (info.param.mode == Mode::kGlobal ? "_global_" : "_local_") +
                  info.param.topology + (info.param.equal_capacities ? "_equal" : "");
  return s;
}

using enum Strategy;
using enum Mode;

// Global: compute_transfers over the whole graph every round. Homogeneous on identical machines
// (the heterogeneous testbed with CPU seconds as load: the local suite, strategy_test's
// Seed000Testbed).
const Case kGlobalCases[] = {
    Case{kDiffusion, kGlobal, "ring8", 5},              // (4)
    Case{kDiffusion, kGlobal, "ring16", 47},            // (42)
    Case{kDiffusion, kGlobal, "mesh4x4", 8},            // (7)
    Case{kDiffusion, kGlobal, "random10", 20},          // (18)
    Case{kDiffusion, kGlobal, "random20", 27},          // (24)
    Case{kDiffusion, kGlobal, "random30", 27},          // (24)
    Case{kDiffusion, kGlobal, "random40", 29},          // (26)
    Case{kDiffusion, kGlobal, "idring40", 7},           // (6)
    Case{kGde, kGlobal, "ring8", 2},                    // (1)
    Case{kGde, kGlobal, "ring16", 7},                   // (6)
    Case{kGde, kGlobal, "mesh4x4", 2},                  // (1)
    Case{kGde, kGlobal, "random10", 4},                 // (3)
    Case{kGde, kGlobal, "random20", 5},                 // (4)
    Case{kGde, kGlobal, "random30", 8},                 // (7)
    Case{kGde, kGlobal, "random40", 5},                 // (4)
    Case{kGde, kGlobal, "idring40", 2},                 // (1)
    Case{kHbm, kGlobal, "ring8", 1},                    // (1): exact in one pass
    Case{kHbm, kGlobal, "ring16", 1},                   // (1): exact in one pass
    Case{kHbm, kGlobal, "mesh4x4", 1},                  // (1): exact in one pass
    Case{kHbm, kGlobal, "random10", 1},                 // (1): exact in one pass
    Case{kHbm, kGlobal, "random20", 1},                 // (1): exact in one pass
    Case{kHbm, kGlobal, "random30", 1},                 // (1): exact in one pass
    Case{kHbm, kGlobal, "random40", 1},                 // (1): exact in one pass
    Case{kHbm, kGlobal, "idring40", 1},                 // (1): exact in one pass
    Case{kRid, kGlobal, "ring8", 2},                    // (1)
    Case{kRid, kGlobal, "ring16", 49},                  // (44)
    Case{kRid, kGlobal, "mesh4x4", 5},                  // (4)
    Case{kRid, kGlobal, "random10", 26},                // (23)
    Case{kRid, kGlobal, "random20", 31},                // (28)
    Case{kRid, kGlobal, "random30", 47},                // (42)
    Case{kRid, kGlobal, "random40", 50},                // (45)
    Case{kRid, kGlobal, "idring40", 5},                 // (4)
    Case{kHomogeneous, kGlobal, "ring8", 5, true},      // (4)
    Case{kHomogeneous, kGlobal, "ring16", 15, true},    // (13)
    Case{kHomogeneous, kGlobal, "mesh4x4", 6, true},    // (5)
    Case{kHomogeneous, kGlobal, "random10", 5, true},   // (4)
    Case{kHomogeneous, kGlobal, "random20", 10, true},  // (9)
    Case{kHomogeneous, kGlobal, "random30", 10, true},  // (9)
    Case{kHomogeneous, kGlobal, "random40", 9, true},   // (8)
    Case{kHomogeneous, kGlobal, "idring40", 6, true},   // (5)
};
INSTANTIATE_TEST_SUITE_P(Global, ConvergenceTest, ::testing::ValuesIn(kGlobalCases), name);

// Local: every node plans for itself from the same snapshot, as driftd does. Slower: load moves
// one link per round, and a relay passes on only what keeps it below its sender.
const Case kLocalCases[] = {
    Case{kDiffusion, kLocal, "ring8", 19},             // (17)
    Case{kDiffusion, kLocal, "ring16", 213},           // (193)
    Case{kDiffusion, kLocal, "mesh4x4", 37},           // (33)
    Case{kDiffusion, kLocal, "random10", 73},          // (66)
    Case{kDiffusion, kLocal, "random20", 131},         // (119)
    Case{kDiffusion, kLocal, "random30", 182},         // (165)
    Case{kDiffusion, kLocal, "random40", 127},         // (115)
    Case{kDiffusion, kLocal, "idring40", 25},          // (22)
    Case{kGde, kLocal, "ring8", 19},                   // (17)
    Case{kGde, kLocal, "ring16", 209},                 // (190)
    Case{kGde, kLocal, "mesh4x4", 37},                 // (33)
    Case{kGde, kLocal, "random10", 66},                // (60)
    Case{kGde, kLocal, "random20", 127},               // (115)
    Case{kGde, kLocal, "random30", 189},               // (171)
    Case{kGde, kLocal, "random40", 125},               // (113)
    Case{kGde, kLocal, "idring40", 21},                // (19)
    Case{kHbm, kLocal, "ring8", 19},                   // (17)
    Case{kHbm, kLocal, "ring16", 203},                 // (184)
    Case{kHbm, kLocal, "mesh4x4", 36},                 // (32)
    Case{kHbm, kLocal, "random10", 66},                // (60)
    Case{kHbm, kLocal, "random20", 125},               // (113)
    Case{kHbm, kLocal, "random30", 180},               // (163)
    Case{kHbm, kLocal, "random40", 120},               // (109)
    Case{kHbm, kLocal, "idring40", 21},                // (19)
    Case{kRid, kLocal, "ring8", 19},                   // (17)
    Case{kRid, kLocal, "ring16", 203},                 // (184)
    Case{kRid, kLocal, "mesh4x4", 36},                 // (32)
    Case{kRid, kLocal, "random10", 66},                // (60)
    Case{kRid, kLocal, "random20", 125},               // (113)
    Case{kRid, kLocal, "random30", 180},               // (163)
    Case{kRid, kLocal, "random40", 120},               // (109)
    Case{kRid, kLocal, "idring40", 21},                // (19)
    Case{kHomogeneous, kLocal, "ring8", 17, true},     // (15)
    Case{kHomogeneous, kLocal, "random40", 41, true},  // (37)
    Case{kHomogeneous, kLocal, "ring8", 16},           // (14)
    Case{kHomogeneous, kLocal, "ring16", 193},         // (175)
    Case{kHomogeneous, kLocal, "mesh4x4", 31},         // (28)
    Case{kHomogeneous, kLocal, "random10", 91},        // (82)
    Case{kHomogeneous, kLocal, "random20", 87},        // (79)
    Case{kHomogeneous, kLocal, "random30", 128},       // (116)
    Case{kHomogeneous, kLocal, "random40", 99},        // (90)
    Case{kHomogeneous, kLocal, "idring40", 24},        // (21)
};
INSTANTIATE_TEST_SUITE_P(Local, ConvergenceTest, ::testing::ValuesIn(kLocalCases), name);

}  // namespace
}  // namespace drift::balance::sim
