// What a job's root knows of its checkpoints (docs/architecture.md §9): when the next one is due (every K
// steps and/or every T seconds, never at the last step), which tasks have acknowledged a pending
// one, the committed step with its reduction values and the two nodes holding each task's copy,
// and where each task can be restored after failures. Pure: time comes in as arguments.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include <drift/status.h>

namespace drift {

struct CheckpointPolicy {
  std::uint64_t every_steps = 0;                 // 0: not by step count
  std::chrono::milliseconds interval{5000};      // 0: not by time
  // A running job none of whose tasks ends a handler for this long (and for 5 times its longest
  // step) lost a message or a node nobody declared dead: it rolls back like after a failure.
  // 0: never.
  std::chrono::milliseconds stall{30000};
  // Copies are also kept on disk (checkpoint.disk): a job whose task has no copy left on a live
  // node waits this long for a node holding one to restart and offer it before it fails.
  bool disk = false;
  std::chrono::milliseconds disk_wait{60000};
  // A copy not on disk after this long is acknowledged from memory, and copies stay in memory
  // only until the disk has caught up (a hung disk must not hold every checkpoint back).
  std::chrono::milliseconds disk_patience{5000};
  bool enabled() const { return every_steps > 0 || interval.count() > 0; }
};

class JobCheckpoints {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  struct Copies {
    std::uint32_t primary = 0;
    std::uint32_t buddy = 0;  // 0: none (a one-node cluster)
    std::uint32_t lost_primary = 0, lost_buddy = 0;  // where they were before lose_copies
  };
  struct Committed {
    std::uint64_t step = 0;  // 0-based step whose reduction the tasks had not yet taken
    std::vector<double> values;  // that reduction, resent after a rollback
    std::vector<Copies> copies;  // by task index
  };

  JobCheckpoints(std::uint32_t tasks, CheckpointPolicy policy, TimePoint start);

  // Step `step` (0-based) of `total` completed at `now`: checkpoint at it? True also when a
  // checkpoint was forced (after a recovery, or a copy holder died). While the previous one is
  // still being stored (not every task acknowledged it) none is due: a state that takes longer
  // than the interval to copy stretches the interval instead of overlapping copies of it on the
  // same slow partner (docs/architecture.md §9). A pending one older than 4 intervals, or 4
  // times every_steps steps (an acknowledgement lost), no longer holds the next back. And a
  // checkpoint by time comes at most every 20 times what the last one took from its start to its
  // commit, so checkpoints cost a job at most about 5 % of its time however slow saving and
  // copying its states is.
  bool due(std::uint64_t step, std::uint64_t total, TimePoint now) const;
  // The root sends step's reduction marked as a checkpoint.
  void begin(std::uint64_t step, std::vector<double> values, TimePoint now);
  // A task's two copies of `step` are stored (at `now`; unknown: the default). True when that was
  // the last task: `step` is now committed (and older pending ones are gone).
  bool acknowledge(std::uint32_t task, std::uint64_t step, Copies copies, TimePoint now = {});
  const std::optional<Committed>& committed() const { return committed_; }
  // A deputy taking the job over starts from what the root had committed.
  void adopt(Committed committed) { committed_ = std::move(committed); }

  // A rollback voids pending checkpoints; the next step boundary checkpoints again, so every task
  // has two copies once more.
  void rolled_back();
  void force_next() { forced_ = true; }
  // True if `node` holds a copy of the committed checkpoint.
  bool holds_copy(std::uint32_t node) const;
  // `node` no longer has its copies (it died, or fenced itself and rejoined): a restore uses the
  // other copy. Pending checkpoints it acknowledged lose it too.
  void lose_copies(std::uint32_t node);
  // `node` is gone as a holder of copies (it died, left, or fenced itself and dropped them):
  // lose_copies, and the next step checkpoints again (force_next) if it held a committed copy —
  // some task has one left — or a checkpoint is pending, whose copies it may have been sent and
  // never acknowledged. True if the next one was forced.
  bool holder_gone(std::uint32_t node);
  // `node` restarted and offers its copies of `tasks` at `step` from disk: where it held them
  // before it lost them (lose_copies), it holds them again. Returns how many were regained
  // (0 unless `step` is the committed one).
  std::size_t regain_copies(std::uint32_t node, std::uint64_t step,
                            const std::vector<std::uint32_t>& tasks);
  // For each task, a live node holding its committed copy (its primary if alive, else its buddy);
  // an error naming the first task whose copies are all on dead nodes.
  Result<std::vector<std::uint32_t>> restore_placement(
      const std::function<bool(std::uint32_t)>& alive) const;
  std::size_t pending() const { return pending_.size(); }

 private:
  struct Pending {
    TimePoint began;
    std::vector<double> values;
    std::map<std::uint32_t, Copies> acks;
  };

  std::uint32_t tasks_;
  CheckpointPolicy policy_;
  TimePoint last_;
  TimePoint::duration last_cost_{0};  // the last committed checkpoint's start to its commit
  bool forced_ = false;
  std::map<std::uint64_t, Pending> pending_;
  std::optional<Committed> committed_;
};

}  // namespace drift
