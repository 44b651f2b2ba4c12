// Runs a whole job of any Application in one thread, as the in-process runner does
// (tests/support/inprocess_runner.h), with changes of the job's decomposition: when a step's
// reduction is complete, a planner names that step's GrainChanges (seeing the tasks between
// handlers, as the runtime's root does) and every unfinished task gets regrain(step, changes) and
// then reduced(step, values) — two events, so deliveries and migrations may fall between them.
// Pending events (a task's start, the head message of each channel, a task's next regrain or
// reduction) are delivered in a pseudo-random order drawn from `seed`, in order within each
// (sender, receiver) channel. Contributions combine in task-index order like the root's. After
// any handler a random task may be saved, replaced by a fresh create_task() restored from those
// bytes and started again (a migration, or a restore from a checkpoint).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "node/application.h"
#include "protocol/status.h"
#include "protocol/wire_types.h"

namespace drift::test_support {

struct GrainRunOptions {
  std::uint64_t seed = 1;
  double migrate_probability = 0;  // after each handler, of migrating a random unfinished task
  std::uint64_t max_handlers = 10'000'000;
};

struct GrainRunStats {
  std::uint64_t handlers = 0;
  std::uint64_t reductions = 0;
  std::uint64_t migrations = 0;
  std::uint64_t changes = 0;                         // announced, applicable or not
  std::map<std::uint32_t, std::uint64_t> messages;   // sent, by tag
  std::map<std::uint32_t, std::size_t> max_payload;  // largest payload sent, by tag
};

// The changes to announce with reduction `step`; tasks[i] is task i between two handlers.
using GrainPlanner = std::function<std::vector<GrainChange>(std::uint64_t step,
                                                            const std::vector<const Task*>& tasks)>;

// Announces script[step] with reduction `step`, nothing at other steps.
GrainPlanner scripted_changes(std::map<std::uint64_t, std::vector<GrainChange>> script);

// Validates spec with app.validate, runs the job to completion and returns app.combine's outcome.
// Errors: invalid spec, no task from create_task, a handler throwing or failing the job, sends to
// unknown tasks, bad or duplicate contributions, double finish, a state that does not restore or
// saves other bytes after a restore, a deadlock, or more than max_handlers handlers.
Result<JobOutcome> run_with_grain_changes(const Application& app, JobSpec spec,
                                          const GrainPlanner& planner,
                                          const GrainRunOptions& options = {},
                                          GrainRunStats* stats = nullptr);

}  // namespace drift::test_support
