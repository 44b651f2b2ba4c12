// Initial placement of a job's tasks on nodes in proportion to their capacity (docs/architecture.md §6). Pure.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace drift {

// Returns the node id of each task index 0..tasks-1. Counts are proportional to capacity, rounded
// by largest remainder (ties to the lower node id); each node gets one contiguous index range, in
// node-id order, so neighbouring tasks share a node. Nodes whose capacity is not a finite number
// > 0 get nothing; if no node qualifies (or the list is empty) the result is empty.
std::vector<std::uint32_t> place_by_capacity(
    std::uint32_t tasks, const std::vector<std::pair<std::uint32_t, double>>& nodes);

// The same for a job whose last `spare` tasks start without work (Application::spare_tasks): the
// working tasks and the spare ones are each placed by capacity, so every node gets its share of
// both (a split's half can then often stay where its spare task is).
std::vector<std::uint32_t> place_job(std::uint32_t tasks, std::uint32_t spare,
                                     const std::vector<std::pair<std::uint32_t, double>>& nodes);

}  // namespace drift
