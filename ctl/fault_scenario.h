// A failure-injection scenario (conf/faults/*.scn, format in conf/faults/README.md): the local
// cluster to start, the job(s) to run on it, what the run must show, and the failures to inject
// at given times or steps. Plain data; fault_scenario_parser.h reads it from a file.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace drift::ctl {

// Which daemon an action hits: a fixed one, or one picked when the action fires.
struct NodeRef {
  enum class Kind { kNode, kRoot, kRandom, kWorker };  // worker: random, not the job's root
  Kind kind = Kind::kNode;
  int node = 0;  // kNode: 1..N
  std::string text() const;
};

enum class FaultKind {
  kKill,       // SIGKILL (restarted after `duration_s` when given)
  kStop,       // SIGSTOP (SIGCONT after `duration_s` when given)
  kCont,       // SIGCONT
  kRestart,    // start a killed daemon again (same id and config, new incarnation)
  kPartition,  // cut `side_a` from `side_b` (empty: every other node) for `duration_s`
  kDrop,       // node-to-node frames: drop this fraction
  kDelay,      // node-to-node frames: hold each this long
  kDuplicate,  // node-to-node frames: send this fraction twice
  kHog,        // a busy process in the target's CPU cgroup (ended after `duration_s` when given)
  kMigrate,    // driftctl migrate: task `task` of the running job to the target
};
const char* to_string(FaultKind kind);

struct FaultAction {
  FaultKind kind = FaultKind::kKill;
  NodeRef target;          // kill, stop, cont, restart, hog, migrate (the destination)
  std::uint32_t task = 0;  // migrate: the task's index in the running job
  std::vector<int> side_a;  // partition
  std::vector<int> side_b;  // partition; empty = the rest
  double value = 0;        // drop, duplicate: fraction 0..1; delay: milliseconds
  double duration_s = 0;   // "for D": undone after D (kill: restart; stop: SIGCONT; partition:
                           // heal; frames: back to 0); 0 = not undone
};

struct FaultTrigger {
  enum class Kind { kTime, kStep, kEvery };
  Kind kind = Kind::kTime;
  double at_s = 0;              // kTime: seconds after the first job was submitted
  std::uint64_t step = 0;       // kStep: once the current job reported this many steps
  double every_min_s = 0;       // kEvery: again and again, a random gap in [min, max]
  double every_max_s = 0;
};

struct FaultEntry {
  FaultTrigger when;
  FaultAction action;
  std::string text;    // the line as written, for the report
  std::string origin;  // "conf/faults/kill-root.scn:31"
};

struct JobPlan {
  std::string app;         // as written: an installed application's name, or a path
  std::string app_name;    // the application's own name (Application::name())
  std::string executable;  // a path's executable, shipped with each job; empty: installed
  std::uint32_t tasks = 0;
  std::uint64_t steps = 0;
  std::map<std::string, std::string> params;  // the application's own options
  int submit_to = 1;                           // the daemon the job is submitted to (its root)
  double timeout_s = 60;
  std::string origin;  // file:line of its [job] header
};

// What a run must show to pass (exit 0). Unset fields are not checked.
struct FaultExpectations {
  bool correct = true;                        // every job's checksum equals the serial reference
  std::optional<int> max_false_suspicions;
  int max_false_deaths = 0;
  std::optional<bool> faulted_declared_dead;  // every faulted node declared dead (or none was)
  std::optional<double> max_detection_s;
  std::optional<std::uint64_t> max_steps_recomputed;  // per recovery (JobNotice)
  std::optional<std::uint32_t> max_recoveries;        // per job, whatever caused them
  std::optional<double> max_stall_s;  // the longest gap between a node's membership rounds
  // Of the heartbeats a node received, the share that came more than two intervals after the
  // previous one from the same member (p99 <= 2 intervals: at most 0.01).
  std::optional<double> max_late_heartbeats;
};

struct FaultScenario {
  std::string file;
  std::string title;   // the first comment line
  int nodes = 0;
  bool netns = false;  // each daemon in its own network namespace (needed by partition)
  std::string base_config;                       // driftd config shared by all (absolute path)
  std::vector<std::string> all_args;             // "--key=value" for every daemon
  std::map<int, std::vector<std::string>> node_args;  // ... for daemon K only
  int cpu_hogs = 0;        // busy-looping processes competing with the daemons
  int cpu_hogs_nice = 0;   // their nice value (0: an owner's foreground program; 19: background)
  std::map<int, double> cpu_cores;  // daemon K -> its CPU quota in cores (fault_cpu_quota.h)
  long cpu_period_us = 100000;      // the quota's enforcement period
  double duration_s = 0;   // 0: run each job once; else run them in turn until this long
  std::vector<JobPlan> jobs;
  std::vector<FaultEntry> faults;
  FaultExpectations expect;
};

}  // namespace drift::ctl
