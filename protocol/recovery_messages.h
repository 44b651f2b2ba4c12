// The messages of checkpoints and rollback recovery (docs/architecture.md §9), and the notice a job's client
// gets when its job recovered. A job's `generation` counts its rollbacks: every task message,
// contribution and result carries the generation it was made in, and anything from an older one
// is dropped, so nothing of the timeline that was rolled back leaks into the new one.
//
// Checkpoint of step s: each task saves its state just before it takes step s's reduction (it has
// contributed to s and received every message of s), keeps it (CheckpointCopy to itself is not
// sent: its node stores it) and sends a copy to a buddy node; the buddy acknowledges to the root;
// with every task acknowledged the root commits s (CheckpointCommit) and nodes drop older copies.
// Recovery: JobRollback to every live node (drop the job's tasks, restore the listed ones from a
// stored copy, not started) → RollbackReady → JobResume (start them) → the root resends step s's
// reduction. The root keeps its deputy (its buddy node) up to date with a JobRecord;
// if the root dies, the deputy becomes the root and rolls the job back itself, and the client,
// having lost its connection, finds the new root with JobAttach.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/msg_type.h"
#include <drift/wire_field.h>
#include "protocol/wire_types.h"

namespace drift {

// Task's node -> buddy node: keep this copy of the task's checkpointed state. A state larger
// than a chunk travels as several copies, each carrying the bytes at `offset` of `total`; the
// buddy assembles them and acknowledges once it holds all `total` bytes.
struct CheckpointCopy {
  static constexpr MsgType kType = MsgType::kCheckpointCopy;
  TaskId task;
  std::uint32_t generation = 0;
  std::uint64_t step = 0;
  std::uint32_t primary = 0;  // the node that keeps the other copy (the task's node)
  std::uint64_t offset = 0;   // where `state` starts in the whole state
  std::uint64_t total = 0;    // bytes of the whole state
  std::vector<std::uint8_t> state;

  friend bool operator==(const CheckpointCopy&, const CheckpointCopy&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(task, generation, step, primary, offset, total, state);
  }
};

// Buddy -> root: both copies of the task's state at `step` are stored, on primary and buddy
// (buddy 0: a one-node cluster, the only copy is the primary's).
struct CheckpointAck {
  static constexpr MsgType kType = MsgType::kCheckpointAck;
  TaskId task;
  std::uint32_t generation = 0;
  std::uint64_t step = 0;
  std::uint32_t primary = 0;
  std::uint32_t buddy = 0;

  friend bool operator==(const CheckpointAck&, const CheckpointAck&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(task, generation, step, primary, buddy);
  }
};

// Root -> nodes: every task of the job is saved at `step`; copies of older steps can go.
struct CheckpointCommit {
  static constexpr MsgType kType = MsgType::kCheckpointCommit;
  std::uint64_t job = 0;
  std::uint64_t step = 0;

  friend bool operator==(const CheckpointCommit&, const CheckpointCommit&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, step);
  }
};

// Root -> every live node: roll the job back to generation `generation`. Drop its tasks here and
// restore `restore` (task indices) from the copies of `step` stored here — or, when `from_start`,
// create them afresh — without starting them. `placement[i]` is task i's node from now on.
struct JobRollback {
  static constexpr MsgType kType = MsgType::kJobRollback;
  std::uint64_t job = 0;
  std::uint32_t generation = 0;
  std::uint32_t root = 0;
  bool from_start = false;
  std::uint64_t step = 0;
  JobSpec spec;
  std::vector<std::uint32_t> placement;
  std::vector<std::uint32_t> restore;

  friend bool operator==(const JobRollback&, const JobRollback&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, generation, root);
    wire_bool(ar, from_start);
    ar(step, spec, placement, restore);
  }
};

struct RollbackReady {
  static constexpr MsgType kType = MsgType::kRollbackReady;
  std::uint64_t job = 0;
  std::uint32_t generation = 0;
  std::uint32_t node = 0;
  bool ok = false;
  std::string error;

  friend bool operator==(const RollbackReady&, const RollbackReady&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, generation, node);
    wire_bool(ar, ok);
    ar(error);
  }
};

// Root -> every live node: every node has rolled back; start the restored tasks.
struct JobResume {
  static constexpr MsgType kType = MsgType::kJobResume;
  std::uint64_t job = 0;
  std::uint32_t generation = 0;

  friend bool operator==(const JobResume&, const JobResume&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, generation);
  }
};

// Root -> its deputy: what the deputy needs to take the job over if the root dies.
// A split or merge the root announced with `step`'s reduction (node/jobs/job_grain.h).
struct StepGrainChange {
  std::uint64_t step = 0;
  GrainChange change;

  friend bool operator==(const StepGrainChange&, const StepGrainChange&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(step, change);
  }
};

struct JobRecord {
  static constexpr MsgType kType = MsgType::kJobRecord;
  std::uint64_t job = 0;
  std::uint32_t root = 0;
  JobSpec spec;
  std::uint32_t generation = 0;
  bool committed = false;         // a checkpoint is committed: the fields below describe it
  std::uint64_t step = 0;
  std::vector<double> values;
  std::vector<std::uint32_t> primaries;  // by task index
  std::vector<std::uint32_t> buddies;
  std::uint64_t steps_done = 0;
  std::uint32_t recoveries = 0;
  std::uint64_t steps_recomputed = 0;
  std::uint64_t migrations = 0;
  double elapsed_s = 0;           // the job's age when this was sent
  std::vector<double> step_s;
  // The splits and merges announced up to the committed step (all of them: the decomposition a
  // rollback to it returns to, and the changes its reduction goes again with).
  std::vector<StepGrainChange> grain{};
  // What the application said of the job when it was submitted (its executable may not run on
  // the deputy): how each reduced value combines (ReduceOp, 0..2), and its spare tasks.
  std::vector<std::uint8_t> reduce_ops{};
  std::uint32_t spare_tasks = 0;

  friend bool operator==(const JobRecord&, const JobRecord&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, root, spec, generation);
    wire_bool(ar, committed);
    ar(step, values, primaries, buddies, steps_done, recoveries, steps_recomputed, migrations,
       elapsed_s, step_s, grain, reduce_ops, spare_tasks);
  }
};

// A node -> the job's root: this node is leaving the job without its tasks (its owner's
// evacuation deadline passed before they could all migrate away): roll the job back without it.
struct NodeLeaving {
  static constexpr MsgType kType = MsgType::kNodeLeaving;
  std::uint64_t job = 0;
  std::uint32_t node = 0;
  std::string reason;

  friend bool operator==(const NodeLeaving&, const NodeLeaving&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, node, reason);
  }
};

// A node -> the job's root: this node is leaving the cluster (SIGTERM) and every task of the job
// it hosted has moved away: its end is no failure of the job, which goes on without a rollback
// (a checkpoint copy it held is made again at the next checkpoint). Answered by NodeLeftAck.
struct NodeLeft {
  static constexpr MsgType kType = MsgType::kNodeLeft;
  std::uint64_t job = 0;
  std::uint32_t node = 0;

  friend bool operator==(const NodeLeft&, const NodeLeft&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, node);
  }
};

// The root -> the leaving node: it knows, so the node may stop.
struct NodeLeftAck {
  static constexpr MsgType kType = MsgType::kNodeLeftAck;
  std::uint64_t job = 0;

  friend bool operator==(const NodeLeftAck&, const NodeLeftAck&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job);
  }
};

// A node -> the job's root: the job's worker process on this node ended while it hosted tasks
// (crashed, was killed, passed its memory limit): those tasks are gone; roll the job back. The
// reason names how the worker ended and the last lines of its stderr.
struct WorkerLost {
  static constexpr MsgType kType = MsgType::kWorkerLost;
  std::uint64_t job = 0;
  std::uint32_t node = 0;
  std::uint32_t generation = 0;
  std::vector<std::uint32_t> tasks;  // the job's tasks it hosted
  std::string reason;

  friend bool operator==(const WorkerLost&, const WorkerLost&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, node, generation, tasks, reason);
  }
};

// Root -> a node holding its JobRecord of `job`. take_over false: you are no longer the job's
// deputy (the root chose another as the ring changed), drop the record, so that only one node
// takes the job over. take_over true: the root was declared dead by some node and fenced itself,
// or (leaving) it leaves the cluster on SIGTERM; take the job over now, even if you still see it
// alive, and answer NodeLeftAck.
struct DeputyOrder {
  static constexpr MsgType kType = MsgType::kDeputyOrder;
  std::uint64_t job = 0;
  bool take_over = false;
  bool leaving = false;  // take_over because the root leaves the cluster (else: it fenced itself)

  friend bool operator==(const DeputyOrder&, const DeputyOrder&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job);
    wire_bool(ar, take_over);
    wire_bool(ar, leaving);
  }
};

// A node that restarted -> each member it sees alive: its data dir holds copies of these tasks of
// `job` at `step`, written before it went down (checkpoint.disk). The job's root counts them as
// copies again where the node held them before, so a task whose copies in memory were all lost
// can still be restored, and answers with a CheckpointCommit of its committed step; copies that no
// root claims are deleted after a while.
struct CheckpointOffer {
  static constexpr MsgType kType = MsgType::kCheckpointOffer;
  std::uint64_t job = 0;
  std::uint64_t step = 0;
  std::uint32_t node = 0;
  std::vector<std::uint32_t> tasks;  // task indices

  friend bool operator==(const CheckpointOffer&, const CheckpointOffer&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, step, node, tasks);
  }
};

// Client -> any daemon: I ran job `job` and lost its root; send me its progress from now on.
// The job's root answers JobNotice kRootChanged and follows it; another node answers kNotHere,
// naming the root it knows of (0: none).
struct JobAttach {
  static constexpr MsgType kType = MsgType::kJobAttach;
  std::uint64_t job = 0;
  std::uint64_t steps_seen = 0;  // the most steps the client saw done: a deputy's record may
                                 // be older, and its count of steps done again too low

  friend bool operator==(const JobAttach&, const JobAttach&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, steps_seen);
  }
};

// kWaiting: a task's copies are all on failed nodes; the job waits for one of them to restart
// and offer its copies from disk (checkpoint.disk) before it fails.
// kSatOut: live nodes that take no task of the job (no executable for their architecture).
enum class JobNoticeKind : std::uint8_t {
  kRecovered = 1,
  kRootChanged = 2,
  kNotHere = 3,
  kWaiting = 4,
  kSatOut = 5,
  kQueued = 6  // the job waits in its root's queue; the text says for what
};
inline constexpr std::uint8_t kJobNoticeKindMax = 6;

// Root -> the job's client: something happened to the job that the user should know.
struct JobNotice {
  static constexpr MsgType kType = MsgType::kJobNotice;
  std::uint64_t job = 0;
  JobNoticeKind kind = JobNoticeKind::kRecovered;
  std::uint32_t node = 0;              // where it failed (a node, a worker's node); 0: a stall
  std::uint64_t step = 0;              // rolled back to: steps completed at the checkpoint
  std::uint64_t steps_recomputed = 0;  // steps completed since, to be done again
  double recovery_s = 0;               // declared dead -> job running again, at the root
  std::string text;

  friend bool operator==(const JobNotice&, const JobNotice&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job);
    wire_enum<kJobNoticeKindMax>(ar, kind);
    ar(node, step, steps_recomputed, recovery_s, text);
  }
};

}  // namespace drift
