// Phase 4 of load balancing, Task selection (docs/architecture.md §8, seed 000): which tasks meet one
// transfer, as a 0-1 knapsack whose value counts the load moved, communication locality and the
// cost of shipping state. Pure and deterministic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace drift::balance {

struct Candidate {
  std::uint64_t key = 0;  // opaque to the library
  double load = 0;        // >= 0
  std::uint64_t state_bytes = 0;
  double locality = 0;  // > 0: the task talks more to tasks at the destination than to tasks
                        // staying here
};

struct SelectionParams {
  double locality_weight = 0.1;    // value of one unit of locality, in load units
  double bytes_weight = 0;         // cost of one byte of state, in load units
  double tolerance = 0.05;         // may exceed the target by this fraction of it
  std::size_t max_buckets = 2000;  // DP resolution
};

// 0-1 knapsack: chooses tasks whose total load comes closest to `target` without exceeding
// target * (1 + tolerance) (by more than the rounding of adding doubles, 1e-12 of it), preferring
// value = load + locality_weight * locality - bytes_weight * bytes higher. Precisely, it maximizes
//     Σ (locality_weight * locality - bytes_weight * bytes) - |Σ load - target|
// (= Σ value - target below the target, so a task is worth taking when its value is positive;
// above the target every extra load unit costs), to within the DP resolution: loads are counted
// in target * (1 + tolerance) / max_buckets steps, exactly when all loads are whole numbers and
// the bound is at most max_buckets. So a locality or bytes term can outweigh a little load
// distance, and decides between selections of equal load. Returns ascending indexes into
// `candidates`; empty if nothing fits or nothing beats moving nothing, or target <= 0.
// Candidates with a negative or non-finite load are never chosen.
std::vector<std::size_t> select_tasks(const std::vector<Candidate>& candidates, double target,
                                      const SelectionParams& params);

}  // namespace drift::balance
