// What a step costs a node beyond its tasks' computing (docs/architecture.md §8.1): the CPU its
// daemon and workers spend per step on everything else — the halos and reductions they relay,
// encrypt and deliver, the step's bookkeeping. Task loads count computing only, and a slow node
// is slow at this too: on the real-CPU testbed half a tile on a node with a thirtieth of a core
// held every step of heat2d for 60 ms while the others took 19 ms, though by its capacity the
// half tile was worth 16 ms. The balancer adds this overhead, at the node's share of the CPU,
// to the node's utilization while it holds work (balancer/load_graph.h, NodeLoad::floor).
// Measured over an interval of at least a second in which the node hosted the same tasks (a
// migration's serialising is no step's) and they each took ten steps or more (particles' steps
// of 0.4 s judged two at a time made equal nodes differ by half), not the first such interval
// after the tasks changed (a job's start — its worker, its tasks' creation — measured 1-2 s a
// step, and nodes that believed it gave all their work away): the CPU time of
// the daemon and its workers less their computes' and less what the daemon spends anyway —
// heartbeats, samplers, status requests: its CPU per second while it hosted nothing, measured
// over such seconds — per step, averaged with the previous measurement (half the newest). An
// interval in which task state was captured or taken in (a checkpoint, its copies, a move in or
// out under way at its start or end, a split or merge of its tasks) is not judged, busy or
// idle: on the real testbed a checkpoint of 64 tiles of 4 MB, two copies each, took a 0.06-core
// node's daemon 6 s, and counted as step overhead it made floors of 0.1-0.3 s, which the node
// kept once emptied — it sat out of the pool (load_graph.h, sits_out) for 17 s of a 52 s job. Kept
// while the node holds nothing — it is what work sent there would meet — and 0 before the first.
// The arithmetic is pure; StepOverhead keeps the readings.
#pragma once

#include <drift/types.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace drift {

// CPU seconds per step beyond the computes over one interval: `node_cpu_s` the daemon's and its
// workers' CPU time in it, `compute_cpu_s` its tasks' computes', `idle_cpu_s` what the daemon
// would have spent in it hosting nothing, `task_steps` the steps its `tasks` hosted tasks
// completed. None with no task, fewer than kMinStepsPerTask steps a task (nothing to judge by) or
// a reading that went back.
inline constexpr double kMinStepsPerTask = 10;
std::optional<double> overhead_per_step(double node_cpu_s, double compute_cpu_s, double idle_cpu_s,
                                        double task_steps, std::size_t tasks);

class StepOverhead {
 public:
  static constexpr double kIntervalSeconds = 1;

  struct Reading {
    double node_cpu_s = 0;     // the daemon's and its workers' CPU time so far
    double compute_cpu_s = 0;  // its tasks' computes' so far (LoadMeter)
    std::uint64_t steps = 0;   // steps its tasks completed so far (LoadMeter)
    bool moving = false;       // a move in or out of the node is under way now
    // Task state the node has taken in so far: its workers' captures (checkpoints, moves) and
    // the checkpoint copies it kept, bytes.
    std::uint64_t state_bytes = 0;
    // Splits and merges its tasks took part in so far: their copying is no step's either.
    std::uint64_t grain_changes = 0;
  };
  // The node's tasks now; `read` is called only where an interval starts or may end (the /proc
  // reads behind it stay off most heartbeats). An interval starts again whenever the tasks change.
  void sample(double now_s, std::vector<TaskId> hosted, const std::function<Reading()>& read);
  void sample(double now_s, const Reading& reading, std::vector<TaskId> hosted) {
    sample(now_s, std::move(hosted), [&reading] { return reading; });
  }
  double cpu_seconds() const { return overhead_.value_or(0); }      // per step; 0: none measured
  double idle_cpu_per_second() const { return idle_.value_or(0); }  // hosting nothing

 private:
  struct Start {
    double at = 0;
    Reading reading;
    std::vector<TaskId> hosted;
    bool warmed = false;  // an interval with these tasks has passed
  };
  std::optional<Start> start_;
  std::optional<double> overhead_;
  std::optional<double> idle_;
};

}  // namespace drift
