// The machines a balancing round works on (docs/architecture.md §8, seed 000): each node's abstract load L
// and capacity C (load per second), so utilization U = L / C, and the undirected links load may
// move along. Plain values; the graph builders are the topologies the tests and simulators use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace drift::balance {

struct NodeLoad {
  std::uint32_t id = 0;  // opaque to the library
  double load = 0;       // >= 0, machine-independent units
  double capacity = 1;   // > 0, load units per second
  // Seconds a step takes on this node beyond L / C while it holds any load, whatever the load:
  // the CPU its step costs besides the tasks' computing (messages relayed, delivered), at the
  // node's share of the CPU — on a slow node or one under a tiny CPU quota, more than a small
  // task's computing. 0: none.
  double floor = 0;
};

// Undirected; edges are index pairs into `nodes`. Self-loops, repeated pairs and out-of-range
// indexes are ignored by every algorithm.
struct LoadGraph {
  std::vector<NodeLoad> nodes;
  std::vector<std::pair<std::size_t, std::size_t>> edges;

  static LoadGraph star(std::vector<NodeLoad> nodes);  // nodes[0] linked to each other node
  static LoadGraph complete(std::vector<NodeLoad> nodes);
  static LoadGraph ring(std::vector<NodeLoad> nodes);  // i -- i+1 and last -- first (n >= 3)
  // 2-D grid, row-major: node i sits at (i / width, i % width); the last row may be partial.
  static LoadGraph mesh(std::vector<NodeLoad> nodes, std::size_t width);

  // Distinct neighbours of node i, ascending.
  std::vector<std::size_t> neighbours(std::size_t i) const;
};

// U = load / capacity; a node without capacity (<= 0) has U = +inf if it holds load, else 0.
double utilization(double load, double capacity);
// A node's U with its step floor: load / capacity + floor while it holds load, else 0.
// Nondecreasing in the load, so a move that lowers the pair's peak can never come back.
double utilization(const NodeLoad& n);
// The node as it would be holding `load` instead.
inline NodeLoad holding(NodeLoad n, double load) {
  n.load = load;
  return n;
}
// The receiver as it would be after taking `amount` of the sender's load. A node that holds
// nothing advertises the floor it measured when it last hosted tasks — other tasks, perhaps long
// ago — yet the work sent there will cost it what it costs the sender beyond computing, at the
// receiver's speed: the sender's floor in proportion to the part of its load that moves, times
// sender.capacity / receiver.capacity. Its floor is the larger of the two. Else a lone task
// between two idle-looking members always looked better on the one not hosting it (whose floor
// lacked the task's own overhead) and went back and forth every round.
NodeLoad receiving(const NodeLoad& receiver, const NodeLoad& sender, double amount);
// A node holding nothing whose step floor is at `level` or above: any work sent there would make
// it slower than that, so it is not part of the pool at that level (efficiency).
bool sits_out(const NodeLoad& n, double level);

// U_avg / U_max over the nodes (seed 000); 1 when every U is 0 (or no nodes), 0 when some node
// holds load without capacity. A node without capacity and without load (a machine its owner
// took back, say) is not part of the pool and is left out of the average, as is one that sits
// out at the busiest member's utilization (its step floor above it).
double efficiency(const std::vector<NodeLoad>& nodes);

}  // namespace drift::balance
