// Runs a whole job of any Application in one thread, without daemons: the runtime's semantics
// (docs/architecture.md §6) with the network replaced by queues, for tests. Pending events (a task's start,
// the head message of each channel, a task's next reduction result) are delivered in a
// pseudo-random order drawn from `seed`, respecting per-channel order, so tests see arbitrary
// interleavings. Reductions combine contributions in task-index order with the app's
// reduction_ops(), then go to every unfinished task. Optionally, after each handler a random
// task is saved with save_state and replaced by a fresh create_task() restored with load_state
// (emulated migration), which catches state missing from serialize(). With a grain planner, the
// root's part of granularity too: when a step's reduction is complete the planner names that
// step's GrainChanges (seeing the tasks between handlers), and every unfinished task gets
// regrain(step, changes) and then reduced(step, values) — two events, so deliveries and
// migrations may fall between them. After every handler the runner reads what the runtime reads
// (load, can_split, merge_partner).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include <drift/application.h>
#include <drift/status.h>
#include "protocol/wire_types.h"

namespace drift::test_support {

// The changes to announce with reduction `step`; tasks[i] is task i between two handlers.
using GrainPlanner = std::function<std::vector<GrainChange>(std::uint64_t step,
                                                            const std::vector<const Task*>& tasks)>;

// Announces script[step] with reduction `step`, nothing at other steps.
GrainPlanner scripted_changes(std::map<std::uint64_t, std::vector<GrainChange>> script);

struct InProcessOptions {
  std::uint64_t seed = 1;                    // delivery order and migration choices
  double migrate_probability = 0;            // chance, after each handler, to migrate a random task
  bool restart_after_restore = true;         // call start() on a restored task (Task API contract)
  bool check_state_round_trip = true;        // restored task must save the very same bytes
  bool deliver_before_start = false;         // let messages reach a task before its start() ran
  std::uint64_t max_handlers = 100'000'000;  // a livelock guard
  std::uint64_t job_id = 1;
  GrainPlanner planner{};                    // empty: the decomposition never changes
};

struct InProcessStats {
  std::uint64_t handlers = 0;  // start + receive + reduced calls
  std::uint64_t messages = 0;  // sent
  std::uint64_t dropped = 0;   // sent to a task that had already finished
  std::uint64_t reductions = 0;
  std::uint64_t migrations = 0;
  std::uint64_t state_bytes = 0;  // total serialized by migrations
  std::uint64_t changes = 0;      // grain changes announced, applicable or not
  std::map<std::uint32_t, std::uint64_t> messages_by_tag;  // sent
  std::map<std::uint32_t, std::size_t> max_payload;        // largest payload sent, by tag
};

// Combines one step's contributions (contributions[i] from task i) in task-index order:
// acc = contributions[0]; acc = op(acc, contributions[i]) for i = 1, 2, ...
Result<std::vector<double>> combine_contributions(
    const std::vector<ReduceOp>& ops, const std::vector<std::vector<double>>& contributions);

// Validates spec with app.validate, runs the job to completion and returns app.combine's
// outcome. Errors: invalid spec, create_task returning null, a handler throwing, sends to unknown
// tasks, bad or duplicate contributions, double finish, state that fails to restore, a deadlock
// (nothing left to deliver while tasks are unfinished), or more than max_handlers handlers.
Result<JobOutcome> run_in_process(const Application& app, JobSpec spec,
                                  const InProcessOptions& options = {},
                                  InProcessStats* stats = nullptr);

}  // namespace drift::test_support
