// Phase 1 of load balancing, Measure (docs/architecture.md §8, seed 000): per task its abstract load and
// busy seconds per SPMD step; per node the load L, the capacity C it advertises and the
// utilization U = L / C (seconds per step). Capacity is static (configured or benchmarked) or
// dynamic (EWMA of work units per CPU second times the CPU the node may use — its cores, its
// cgroup's quota; emulated: per busy second — computes pooled into ~0.2 s samples, each fed to
// the EWMA as the best of the last three: interference only slows a window down, so windows
// slowed by scheduling delay do not move the estimate; measured from the third sample on, the
// first window of busy time cut into three, as a node's first sample is often taken at its
// busiest moment, tasks just arrived and every node computing at once; once measured, a window
// also closes after kLightWindowSeconds of wall time if it holds a tenth of its busy time, so a
// node left with little work still refreshes an estimate it may have taken at a bad moment —
// on the real-CPU testbed a node measured during the job's merges, then emptied, advertised
// that first estimate, 29 % below its share, to the job's end); an emulated sample is
// normalised by the external load while it was measured, and the advertised capacity is the
// base divided by (1 + external load per core now), so a loaded machine advertises less at once
// and no load is counted twice. Pure: samples and time come in as arguments, external load from
// a source the owner supplies. Not thread-safe: the daemon uses it on the network thread only.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "node/config/balance_settings.h"
#include "protocol/wire_types.h"

namespace drift {

struct HandlerEffects;

// What the meter knows of one task hosted here. A step ends at each ctx.contribute: busy time
// and work of the handlers since the previous contribution belong to it.
struct TaskMeasure {
  double load = 0;                // abstract load, as the task last reported it
  double step_busy_s = 0;         // busy seconds of its last complete step
  double step_work_units = 0;     // work units of its last complete step
  double work_units = 0;          // all work units measured here
  std::uint64_t steps = 0;        // complete steps measured here
  double last_step_s = 0;         // when its last step ended (meter time)
  double partial_busy_s = 0;      // since its last contribution
  double partial_work_units = 0;  // since its last contribution
  double expected = 0;            // load its sender measured, until its first step here
  double steps_left = -1;         // steps of its job after its last contribution; -1: unknown
};

class LoadMeter {
 public:
  struct Params {
    bool homogeneous = false;  // balance.strategy = homogeneous: load = busy s/step, capacity 1
    CapacityMode capacity = CapacityMode::kDynamic;
    Sensing sensing = Sensing::kEvery;
    double ewma = 0.5;             // weight of the newest sample, (0, 1]
    double static_capacity = 1;    // the whole node's, load units per second, unloaded machine
    double parallelism = 1;        // tasks computing at once; scales a task's work / busy sample
    double sample_window_s = 0.2;  // busy seconds of steps pooled into one capacity sample
    // A real machine: speed samples are work per CPU second the computes got, which neither a
    // CPU quota's throttling nor other programs sharing the core distort (the share the node
    // gets is `parallelism`, the quota included, and the external load); emulated, work per
    // busy wall second, normalised by the emulated external load.
    bool cpu_time = false;
  };
  // External load per core at `now_s` (runnable processes that are not ours).
  using ExternalLoadSource = std::function<double(double now_s)>;

  LoadMeter(Params params, ExternalLoadSource source);

  void on_effects(const HandlerEffects& e, double now_s);  // feed every handler's effects
  void forget(TaskId task);                                // the task left this node (moved/ended)
  // A task arrived with the load its sender measured; counted until its own first step here.
  void expect(TaskId task, double load);
  // Forgets every task not in `hosted` (the host's tasks): effects of a task that moved or ended
  // while its handler ran cannot keep it counted.
  void retain(const std::vector<TaskId>& hosted);
  // retain(hosted), then every hosted task that has not reported yet (its first handler has
  // not run: the tasks queue behind each other on a busy machine) counts with the mean load of
  // those that have, so the node does not look nearly empty while its queue is long.
  void track(const std::vector<TaskId>& hosted);

  double task_load(TaskId task) const;  // what the balancer moves: abstract load, or busy s/step
                                        // when homogeneous; 0 for a task unknown here
  double node_load() const;             // Σ task_load over tasks still known
  double capacity() const;              // advertised, load units per second
  double utilization() const;           // node_load / capacity
  double external_load() const { return external_; }  // per core, as last sensed
  bool measured() const { return measured_; }         // kSamplesToMeasure capacity samples
  // Whether capacity() is in the load's units: measured (dynamic mode), or configured (static,
  // homogeneous); not while a dynamic node still advertises its start-up benchmark.
  bool capacity_measured() const {
    return params_.homogeneous || params_.capacity != CapacityMode::kDynamic || measured_;
  }
  std::uint64_t steps_done() const { return steps_done_; }       // steps of all tasks measured here
  double compute_cpu_seconds() const { return compute_cpu_s_; }  // CPU of all computes measured
  // The CPU a step costs here beyond the computes (machine/step_overhead.h), per step.
  void set_step_overhead(double cpu_seconds) { step_overhead_ = cpu_seconds; }
  // That overhead in seconds of this node's share of the CPU (its parallelism, over 1 + the
  // external load, as the capacity): what a step takes here on top of the load's L / C while the
  // node holds any load, advertised beside the capacity (balancer/load_graph.h, NodeLoad::floor).
  double step_floor() const;
  void sense(double now_s);                           // refresh external load (each heartbeat)

  // Samples before the dynamic estimate replaces the static one: the maximum's window.
  static constexpr std::uint64_t kSamplesToMeasure = 3;
  // A window of a measured node closes after this much wall time holding a tenth of its busy
  // time (kLightWindowShare).
  static constexpr double kLightWindowSeconds = 2;
  static constexpr double kLightWindowShare = 0.1;
  // The unloaded capacity estimate: the EWMA in dynamic mode once measured, else the static one.
  double base_capacity() const;
  const TaskMeasure* task(TaskId task) const;
  const std::map<TaskId, TaskMeasure>& tasks() const { return tasks_; }

 private:
  void end_step(TaskMeasure& t, std::size_t contributions, double now_s);
  void add_sample(double work_units, double seconds, double now_s);
  double advertised() const;

  Params params_;
  ExternalLoadSource source_;
  std::map<TaskId, TaskMeasure> tasks_;
  double external_ = 0;
  double pending_work_ = 0;  // steps not yet pooled into a sample
  double pending_busy_ = 0;
  double pending_since_ = 0;  // meter time of the window's first compute
  std::array<double, kSamplesToMeasure> recent_{};  // the last samples, by samples_ % 3
  double ewma_ = 0;  // of the samples' windowed maximum, work units per second; valid when measured
  std::uint64_t samples_ = 0;
  bool measured_ = false;
  double frozen_ = 0;  // sensing once: the capacity advertised since it was measured
  std::uint64_t steps_done_ = 0;
  double compute_cpu_s_ = 0;
  double step_overhead_ = 0;
};

}  // namespace drift
