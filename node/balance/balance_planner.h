// One balancing round's decision for this node (docs/architecture.md §8 phases 2-4), pure: from this node's
// measured load and capacity, its local group's advertised ones and its own tasks, which tasks
// go where. Profitability (the group's efficiency below eff_min, this node's own efficiency
// below eff_min with hysteresis once settled, balancer/send_trigger.h, and the move shortening
// the slowest member's step), the strategy's transfers (balancer/), knapsack selection with a
// locality term, and no oscillation (Lee's condition: a receiver ends below this node's
// utilization before the move, balance::lowers_peak).
// Granularity: when no selection can meet a transfer because every task is too large to move
// without making its receiver the new bottleneck, it asks for the largest task that can split
// to be split, its half meant for the receiver; a node with nothing to send merges two of its
// tasks that can become one again.
// Receiver-initiated diffusion plans the other way round: what this node asks each neighbour for.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "balancer/load_graph.h"
#include "balancer/strategy.h"
#include "protocol/wire_types.h"

namespace drift {

struct PlannerParams {
  balance::Strategy strategy = balance::Strategy::kDiffusion;
  double eff_min = 0.9;
  double hysteresis = 0.05;  // a settled node sends again below eff_min - this (send_trigger.h)
  double locality_weight = 0.1;  // a task at its partners is worth this fraction of its load more
  std::uint32_t max_moves = 64;
};

// A step floor a peer sent (heartbeat, balancing offer or request; unchecked) as usable seconds:
// anything not a finite number above 0 counts as none.
double peer_floor(double seconds);

// A group member's load index (a heartbeat's, unchecked) as the balancer counts it, or none when
// it must be left out of a round: its owner has the machine, a value is not a usable number, or
// it holds load while its capacity is still its start-up estimate (LoadIndex::capacity_measured:
// in the real testbed's particles rows the first nodes to measure, in particles per second, met
// peers still advertising the benchmark, stencil cells per second, 100 times more; each judged
// itself the slow one and 18 tasks a node left at once). An empty member keeps its estimate: it
// has nothing to measure by until it receives work.
std::optional<balance::NodeLoad> balancing_peer(std::uint32_t id, const LoadIndex& index);

struct TaskView {
  TaskId id;
  double load = 0;                           // in the balancer's units (meter.task_load)
  std::map<std::uint32_t, double> partners;  // node -> messages this task sent to tasks there
  double steps_left = -1;                    // of its job; -1: unknown (counted as many)
  bool splittable = false;                   // Task::can_split
  std::optional<std::uint32_t> merge_partner{};  // Task::merge_partner
};

struct PlannedMove {
  TaskId task;
  std::uint32_t dest = 0;
  double load = 0;
};

// Split `task` in two; the half is for node `dest`.
struct PlannedSplit {
  TaskId task;
  std::uint32_t dest = 0;
};

struct RoundInput {
  balance::NodeLoad self;
  std::vector<balance::NodeLoad> peers;  // the local group as advertised, self excluded
  std::vector<TaskView> tasks;           // tasks here that may move
  double move_seconds = 0;               // what one move has cost lately (the job waits for it)
  bool settled = false;  // this node's last planned round sent nothing (or it has not sent yet)
};

struct RoundPlan {
  double efficiency = 1;                 // of the group as seen, before the round
  bool balance_needed = false;           // efficiency < eff_min
  std::vector<PlannedMove> moves;        // push strategies
  std::vector<balance::Transfer> requests;  // RID: `from` is the index in peers to ask, amount
  bool sending = false;                     // this node is out of balance and sends
  std::vector<PlannedSplit> splits;         // at most one a round
  std::vector<std::pair<TaskId, TaskId>> merges;  // (absorbs, absorbed), both hosted here
};

RoundPlan plan_round(const RoundInput& input, const PlannerParams& params);

// Tasks to send for a receiver's request of `amount` (RID), never leaving the receiver busier
// than this node.
std::vector<PlannedMove> answer_request(const balance::NodeLoad& self,
                                        const balance::NodeLoad& receiver, double amount,
                                        const std::vector<TaskView>& tasks,
                                        const PlannerParams& params);

}  // namespace drift
