// What the testbed benchmark reports for one run, computed from what it measured: the steady
// step time (median of the last third of the steps), the step from which the run stayed near
// it (convergence), the ideal step time Σwork / Σcapacity from the emulated speeds and external
// loads, and the tasks moved after convergence. Pure, unit-tested.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace drift::bench {

// Median of the last third of the steps (at least the last one).
double steady_step(const std::vector<double>& step_s);

// The first step index from which every later step is at most steady * (1 + tolerance);
// step_s.size() when even the last is not.
std::size_t converged_step(const std::vector<double>& step_s, double steady, double tolerance);

// Seconds since the job started at which each step ended.
std::vector<double> step_ends(const std::vector<double>& step_s);

// Σwork / Σ(unit_rate × speed_i × share_i): share_i = 1 / (1 + external load on node i).
double ideal_step(double work_units, double unit_rate, const std::vector<double>& speeds,
                  const std::vector<double>& external_loads = {});

// A cumulative count sampled over time (seconds since the job started): how much it grew after
// time t (the samples are in time order).
std::uint64_t growth_after(const std::vector<std::pair<double, std::uint64_t>>& samples, double t);

// A lower bound on when the job had completed `steps_completed` steps, on the reports' clock: the
// time of the last progress report (steps completed, seconds) that had not yet seen them. Moves
// counted from there are never fewer than those after the step ended. 0 if no report came first.
double reached_at(const std::vector<std::pair<std::uint64_t, double>>& progress,
                  std::uint64_t steps_completed);

// The best any placement of `tasks` equal tasks on nodes of these capacities can do, as a
// fraction of the fluid ideal (work spread exactly by capacity): (tasks / Σcap) / max(n_i / cap_i)
// for the best whole counts n_i (one task at a time where it raises the maximum least).
double whole_task_bound(std::uint32_t tasks, const std::vector<double>& capacities);

}  // namespace drift::bench
