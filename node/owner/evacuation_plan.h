// Where the tasks of a node whose owner came back go (docs/architecture.md §9 "evacuate"): destinations
// chosen by capacity from the heartbeat view. Pure.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "protocol/wire_types.h"

namespace drift {

struct EvacuationTarget {
  std::uint32_t node = 0;
  double load = 0;      // task load it advertised
  double capacity = 0;  // load per second it advertised
};

struct LeavingTask {
  TaskId task;
  double load = 0;  // its abstract load; 0 or less when unknown
};

// Largest task first, each to the target whose utilization (load / capacity) after taking it is
// lowest (ties: lower node id), counting what it already took. A task of unknown load counts
// with the mean of the known ones (1 if none is known). Targets whose capacity is not a finite
// number > 0 or whose load is not finite are left out; no usable target: an empty plan.
std::vector<std::pair<TaskId, std::uint32_t>> plan_evacuation(
    std::vector<LeavingTask> tasks, const std::vector<EvacuationTarget>& targets);

}  // namespace drift
