// A node's side of checkpoints and rollback recovery (DESIGN.md §9). It keeps the checkpoint
// copies of the tasks saved here (primary) and of a neighbour's (buddy), sends each saved state to
// the buddy — the live member half way round the ring of ids — which acknowledges to the root,
// drops copies the root no longer needs, and carries out the root's rollback: the job's tasks
// here are replaced by ones restored from the copies kept here (not started until the root says
// every node is ready), and the job's routing state is reset to the new placement. Network
// thread only.
#pragma once

#include <cstdint>
#include <functional>

#include "migration/location_cache.h"
#include "node/application.h"
#include "node/checkpoint_pieces.h"
#include "node/checkpoint_store.h"
#include "node/messenger.h"
#include "node/task_context.h"
#include "node/task_host.h"
#include "protocol/messages.h"

namespace drift {

class RecoveryAgent {
 public:
  struct Hooks {
    std::function<std::uint32_t()> buddy;                 // 0: no other live node
    std::function<void(std::uint64_t job)> reset_job;     // forget routing, moves, meter entries
    std::uint32_t chunk_bytes = 1u << 20;                 // largest piece of a copy in one frame
  };

  RecoveryAgent(Messenger& messenger, TaskHost& host, LocationCache& locations,
                const AppRegistry& apps, Hooks hooks);

  // A task here saved its state at a checkpoint (HandlerEffects::checkpoint).
  void on_saved(TaskId task, std::uint32_t generation, const CheckpointState& saved);
  void on_copy(CheckpointCopy copy, std::uint32_t from);
  void on_commit(const CheckpointCommit& commit);
  void on_rollback(const JobRollback& rollback);
  void on_resume(const JobResume& resume);
  void drop_job(std::uint64_t job);
  void clear();  // fencing: nothing of ours is trusted any more

  const CheckpointStore& store() const { return store_; }

 private:
  Status restore(const JobRollback& rollback);

  Messenger& messenger_;
  TaskHost& host_;
  LocationCache& locations_;
  const AppRegistry& apps_;
  Hooks hooks_;
  CheckpointStore store_;
  CheckpointAssembler pieces_;
};

}  // namespace drift
