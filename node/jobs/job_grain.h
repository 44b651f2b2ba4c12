// The root's record of one job's decomposition (docs/architecture.md §8, granularity): which of the job's
// tasks are spare, the splits and merges its nodes asked for since the last step, and the
// changes announced with each step's reduction, so that a rollback returns to the decomposition
// of the step it restarts from. The root only sequences changes: the application decides from
// the layout all its tasks share whether a change applies (Task::regrain), so a change it
// ignores costs a spare task here at worst, never a wrong result. Pure: locations come in as a
// function.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "protocol/recovery_messages.h"
#include "protocol/wire_types.h"

namespace drift {

class JobGrain {
 public:
  // Where a task lives as the root believes (0: unknown).
  using Locate = std::function<std::uint32_t(std::uint32_t task)>;

  // Tasks [tasks - spare, tasks) start spare.
  JobGrain(std::uint32_t tasks, std::uint32_t spare);

  // A node's request; kept until the next step completes. A request naming a task outside the
  // job, a spare one (split), or a task already named by a queued request is dropped.
  void request(const GrainChange& change, std::uint32_t dest);
  // The changes to announce with `step`'s reduction, from the queued requests in order: a split
  // takes the lowest spare task on `dest`, else one on the split task's node, else the lowest
  // spare; no task appears in two changes of one step. Empties the queue.
  std::vector<GrainChange> take(std::uint64_t step, const Locate& where);
  // A rollback to the reduction of `step` (nullopt: the start): forgets the changes announced
  // after it and the queued requests. The tasks' copies were saved just before they took that
  // reduction, and some may hold messages their neighbours sent after taking it, by the layout
  // its changes made: it must go again with the same changes (at()).
  void rollback(std::optional<std::uint64_t> step);
  // The changes announced with `step`'s reduction (none: empty).
  std::vector<GrainChange> at(std::uint64_t step) const;
  // Every change announced with the reduction of `step` or before, in order, for the deputy's
  // record; adopt() starts a new root from it.
  std::vector<StepGrainChange> history(std::uint64_t step) const;
  void adopt(const std::vector<StepGrainChange>& history);
  // Testing aid (runtime option chaos_grain=N): N requests, each a split of a random task that
  // has work, or (every other request, counted across calls) a merge undoing a split still in
  // effect. `random` returns
  // uniform 64-bit values.
  void stir(std::uint32_t n, const std::function<std::uint64_t()>& random);

  bool spare(std::uint32_t task) const { return spare_.count(task) > 0; }
  // Changes announced and still in effect (not rolled back).
  std::uint32_t splits() const { return count(GrainKind::kSplit); }
  std::uint32_t merges() const { return count(GrainKind::kMerge); }

 private:
  struct Request {
    GrainChange change;
    std::uint32_t dest = 0;
  };
  void replay();
  std::uint32_t count(GrainKind kind) const;

  std::uint32_t tasks_;
  std::set<std::uint32_t> initial_spare_;
  std::set<std::uint32_t> spare_;
  std::vector<Request> queued_;
  std::map<std::uint64_t, std::vector<GrainChange>> announced_;  // by step
  std::uint64_t stirred_ = 0;  // stir() requests so far: every other one is a merge
};

}  // namespace drift
