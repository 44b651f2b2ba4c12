// A node's side of checkpoints and rollback recovery (docs/architecture.md §9). It keeps the checkpoint
// copies of the tasks saved here (primary) and of a neighbour's (buddy), sends each saved state to
// the buddy — the live member half way round the ring of ids — which acknowledges to the root
// (directly, and through the task's node, which knows the root for certain),
// drops copies the root no longer needs, and carries out the root's rollback: the job's tasks
// here are replaced by ones restored from the copies kept here (not started until the root says
// every node is ready), and the job's routing state is reset to the new placement. Network
// thread only. With checkpoint.disk every copy kept here is also written to the data dir
// (CheckpointDisk); after a restart the copies found there are offered to the jobs' roots.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "migration/location_cache.h"
#include "node/recovery/checkpoint_disk.h"
#include "node/recovery/checkpoint_pieces.h"
#include "node/recovery/checkpoint_store.h"
#include "node/net/messenger.h"
#include "node/tasks/handler_effects.h"
#include "node/tasks/task_host.h"
#include "protocol/messages.h"

namespace drift {

class RecoveryAgent {
 public:
  using Clock = std::chrono::steady_clock;
  struct Hooks {
    std::function<std::uint32_t()> buddy;                 // 0: no other live node
    std::function<void(std::uint64_t job)> reset_job;     // forget routing, moves, meter entries
    std::function<bool(std::uint32_t node)> alive;        // messages to it are sent, not dropped
    std::uint32_t chunk_bytes = 1u << 20;                 // largest piece of a copy in one frame
    std::uint64_t max_copy_bytes = std::uint64_t{1} << 32;  // largest copy a peer may send
    // Runs a function on the network thread (from the disk's thread): with checkpoint.disk a
    // copy is passed on and acknowledged only once it is on disk.
    std::function<void(std::function<void()>)> post;
    // Runs a function on the network thread after a while. A copy the disk has not finished
    // within `disk_patience` is acknowledged from memory, and until the disk has caught up with
    // every write asked of it, copies are kept in memory only (a hung disk, an NFS server
    // gone, must not hold every checkpoint of the node's jobs back; say so in the log).
    std::function<void(std::chrono::milliseconds, std::function<void()>)> post_after;
    std::chrono::milliseconds disk_patience{5000};
  };

  RecoveryAgent(Messenger& messenger, TaskHost& host, LocationCache& locations, Hooks hooks);

  // A task here saved its state at a checkpoint (HandlerEffects::checkpoint).
  void on_saved(TaskId task, std::uint32_t generation, const CheckpointState& saved);
  void on_copy(CheckpointCopy copy, std::uint32_t from);
  void on_commit(const CheckpointCommit& commit);
  void on_rollback(const JobRollback& rollback);
  void on_resume(const JobResume& resume);
  // A member came alive here (it joined, or restarted): rollbacks waiting to see it say ready.
  void on_member_alive();
  void drop_job(std::uint64_t job);
  void clear();  // fencing: nothing of ours is trusted any more
  // The jobs it keeps copies of, or is gathering one of, ascending (what a fence drops).
  std::vector<std::uint64_t> jobs() const;

  // checkpoint.disk: from now on every copy kept here is also written by `disk`. The copies a
  // previous run left there are taken back into memory, to be offered to their jobs' roots
  // (offers()); those that no root claims — with a CheckpointCommit or a JobRollback of the job —
  // by `claim_by` are deleted (sweep). Returns what was found, for the log.
  CheckpointDisk::Loaded use_disk(std::unique_ptr<CheckpointDisk> disk, Clock::time_point claim_by);
  // One offer per job and step of the copies found on disk that no root has claimed yet.
  std::vector<CheckpointOffer> offers() const;
  void sweep(Clock::time_point now);

  const CheckpointStore& store() const { return store_; }
  // Checkpoint copies kept here since start (this node's own tasks' and its neighbours'), and
  // their bytes.
  std::uint64_t copies_kept() const { return copies_kept_; }
  std::uint64_t bytes_kept() const { return bytes_kept_; }

 private:
  void catch_up_disk();
  Status restore(const JobRollback& rollback);
  // Keeps the copy in memory, and with checkpoint.disk writes it; `then` runs (on the network
  // thread) once the disk is done with it: written, failed (logged; the memory copy stands) or
  // skipped as superseded (the root ignores so late an acknowledgement); at once without a
  // disk; after disk_patience, or at once while the disk is late, from memory. With checkpoint.disk a checkpoint commits only
  // when both its copies of every task are on disk: acknowledged at once, a copy still queued
  // for the disk was lost with its node while the commit had deleted the older step (a fresh
  // user's two kills at a commit: 4 of 9 jobs failed with both copies of a task gone).
  void keep(TaskId task, std::uint64_t step, CheckpointStore::State state,
            std::function<void()> then);
  void discard_after(std::uint64_t job, std::uint64_t step);
  // The job's nodes this node does not see alive yet (it would drop messages to them).
  std::vector<std::uint32_t> unseen(const std::vector<std::uint32_t>& placement) const;

  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);  // for what the disk calls back
  Messenger& messenger_;
  TaskHost& host_;
  LocationCache& locations_;
  Hooks hooks_;
  CheckpointStore store_;
  CheckpointAssembler pieces_;
  std::unique_ptr<CheckpointDisk> disk_;          // null: copies in memory only
  std::map<std::uint64_t, Clock::time_point> unclaimed_;  // job -> delete its copies then
  // Rolled back here, but some of the job's nodes are not alive here yet (a node that restarted
  // a moment ago): ready once they are, so that no task's first messages are dropped.
  std::map<std::uint64_t, JobRollback> unready_;
  std::uint64_t copies_kept_ = 0, bytes_kept_ = 0;
  // checkpoint.disk: writes asked of the disk not done yet; whether one of them outlasted
  // disk_patience (copies are then not written, only kept in memory); copies not written so,
  // as (task, step): written once the disk has caught up, those still kept by then.
  std::size_t disk_pending_ = 0;
  bool disk_late_ = false;
  std::set<std::pair<TaskId, std::uint64_t>> disk_skipped_;
};

}  // namespace drift
