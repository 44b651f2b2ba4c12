// Every message drift sends (those of checkpoints and recovery in recovery_messages.h, of
// heartbeats and probes in membership_messages.h, of the owner's commands in owner_messages.h,
// of the test-only frame faults in fault_messages.h); their wire type numbers are in msg_type.h.
// Bodies are Cereal portable binary, little-endian (codec.h).
// Adding a message: give it a new MsgType, a kType member, a place in WireMessage, and a golden
// vector in tests/protocol/sample_messages.cc.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "protocol/msg_type.h"
#include "protocol/app_messages.h"
#include "protocol/balance_messages.h"
#include "protocol/fault_messages.h"
#include "protocol/job_messages.h"
#include "protocol/membership_messages.h"
#include "protocol/owner_messages.h"
#include "protocol/recovery_messages.h"
#include "protocol/wire_types.h"

namespace drift {

enum class PeerRole : std::uint8_t { kNode = 0, kClient = 1 };
inline constexpr std::uint8_t kPeerRoleMax = 1;
const char* to_string(PeerRole r);

using Nonce = std::array<std::uint8_t, 32>;
using Mac = std::array<std::uint8_t, 32>;

struct Hello {
  static constexpr MsgType kType = MsgType::kHello;
  std::string cluster;
  std::uint16_t protocol_version = 0;
  PeerRole role = PeerRole::kNode;
  std::uint32_t node_id = 0;  // 0 for clients
  std::uint64_t incarnation = 0;
  std::string name;
  std::string listen_address;  // empty for clients
  Nonce nonce{};

  friend bool operator==(const Hello&, const Hello&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(cluster, protocol_version);
    wire_enum<kPeerRoleMax>(ar, role);
    ar(node_id, incarnation, name, listen_address, nonce);
  }
};

// HMAC-SHA256 under the cluster secret of the peer's nonce and both hellos (handshake.h).
struct HelloAuth {
  static constexpr MsgType kType = MsgType::kHelloAuth;
  Mac mac{};

  friend bool operator==(const HelloAuth&, const HelloAuth&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(mac);
  }
};

// One application message on the channel (from -> to). `seq` numbers the channel from 1 so the
// receiver delivers in order, exactly once (docs/architecture.md §6).
struct TaskMessage {
  static constexpr MsgType kType = MsgType::kTaskMessage;
  TaskId from;
  TaskId to;
  std::uint64_t seq = 0;
  std::uint32_t tag = 0;
  std::uint32_t generation = 0;  // the job's recovery generation; older ones are dropped
  std::vector<std::uint8_t> payload;

  friend bool operator==(const TaskMessage&, const TaskMessage&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(from, to, seq, tag, generation, payload);
  }
};

// Root -> hosting node: create these tasks of the job. `placement[i]` is the node of task i.
struct CreateTasks {
  static constexpr MsgType kType = MsgType::kCreateTasks;
  std::uint64_t job = 0;
  std::uint32_t root = 0;
  JobSpec spec;
  std::vector<std::uint32_t> placement;
  std::vector<std::uint32_t> indices;

  friend bool operator==(const CreateTasks&, const CreateTasks&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, root, spec, placement, indices);
  }
};

struct TasksCreated {
  static constexpr MsgType kType = MsgType::kTasksCreated;
  std::uint64_t job = 0;
  std::uint32_t node = 0;
  bool ok = false;
  std::string error;

  friend bool operator==(const TasksCreated&, const TasksCreated&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, node);
    wire_bool(ar, ok);
    ar(error);
  }
};

struct StartJob {
  static constexpr MsgType kType = MsgType::kStartJob;
  std::uint64_t job = 0;

  friend bool operator==(const StartJob&, const StartJob&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job);
  }
};

struct ReductionContribution {
  static constexpr MsgType kType = MsgType::kReductionContribution;
  std::uint64_t job = 0;
  std::uint32_t task = 0;
  std::uint64_t step = 0;
  std::vector<double> values;
  std::uint32_t generation = 0;

  friend bool operator==(const ReductionContribution&, const ReductionContribution&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, task, step, values, generation);
  }
};

// Root -> a node: the combined values of `step`, for the listed tasks, which the root believes
// live there; a node routes each on (docs/architecture.md §7) if the task has moved. `checkpoint`: each task
// saves its state just before it takes these values (docs/architecture.md §9). `changes`: the job's new
// decomposition after this step (docs/architecture.md §8, granularity), applied by every task first.
struct ReductionResult {
  static constexpr MsgType kType = MsgType::kReductionResult;
  std::uint64_t job = 0;
  std::uint64_t step = 0;
  std::vector<double> values;
  std::vector<std::uint32_t> tasks;
  std::uint32_t generation = 0;
  bool checkpoint = false;
  std::vector<GrainChange> changes{};

  friend bool operator==(const ReductionResult&, const ReductionResult&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, step, values, tasks, generation);
    wire_bool(ar, checkpoint);
    ar(changes);
  }
};

struct TaskFinished {
  static constexpr MsgType kType = MsgType::kTaskFinished;
  std::uint64_t job = 0;
  std::uint32_t task = 0;
  std::vector<std::uint8_t> result;
  std::uint32_t generation = 0;

  friend bool operator==(const TaskFinished&, const TaskFinished&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, task, result, generation);
  }
};

// Root -> hosting nodes: the job is over (done or failed); drop its tasks.
struct JobEnd {
  static constexpr MsgType kType = MsgType::kJobEnd;
  std::uint64_t job = 0;
  bool failed = false;
  std::string reason;

  friend bool operator==(const JobEnd&, const JobEnd&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job);
    wire_bool(ar, failed);
    ar(reason);
  }
};

// Source -> destination: may I send you this task's state? `epoch` counts the task's moves.
struct MigrationOffer {
  static constexpr MsgType kType = MsgType::kMigrationOffer;
  TaskId task;
  std::uint64_t epoch = 0;
  std::uint32_t root = 0;
  JobSpec spec;
  std::uint64_t state_bytes = 0;
  std::uint32_t chunks = 0;
  BalanceBasis basis;
  std::uint32_t generation = 0;  // the job's recovery generation the task belongs to

  friend bool operator==(const MigrationOffer&, const MigrationOffer&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(task, epoch, root, spec, state_bytes, chunks, basis, generation);
  }
};

struct MigrationAnswer {
  static constexpr MsgType kType = MsgType::kMigrationAnswer;
  TaskId task;
  std::uint64_t epoch = 0;
  bool accepted = false;
  std::string reason;

  friend bool operator==(const MigrationAnswer&, const MigrationAnswer&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(task, epoch);
    wire_bool(ar, accepted);
    ar(reason);
  }
};

// One piece (about 1 MiB) of a task's state, sent behind small messages on the connection.
struct MigrationChunk {
  static constexpr MsgType kType = MsgType::kMigrationChunk;
  TaskId task;
  std::uint64_t epoch = 0;
  std::uint32_t index = 0;
  std::vector<std::uint8_t> bytes;

  friend bool operator==(const MigrationChunk&, const MigrationChunk&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(task, epoch, index, bytes);
  }
};

// Destination -> source: the task is installed and running here (ok), or could not be (the
// source resumes it).
struct MigrationDone {
  static constexpr MsgType kType = MsgType::kMigrationDone;
  TaskId task;
  std::uint64_t epoch = 0;
  bool ok = false;
  std::string reason;

  friend bool operator==(const MigrationDone&, const MigrationDone&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(task, epoch);
    wire_bool(ar, ok);
    ar(reason);
  }
};

// The task lives on `node` since its move number `epoch`; a newer epoch always wins.
struct LocationUpdate {
  static constexpr MsgType kType = MsgType::kLocationUpdate;
  TaskId task;
  std::uint32_t node = 0;
  std::uint64_t epoch = 0;

  friend bool operator==(const LocationUpdate&, const LocationUpdate&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(task, node, epoch);
  }
};

// To the task's home (the job's root): where is it? Answered with a LocationUpdate.
struct LocationQuery {
  static constexpr MsgType kType = MsgType::kLocationQuery;
  TaskId task;

  friend bool operator==(const LocationQuery&, const LocationQuery&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(task);
  }
};

// Move `task` to `dest`; relayed via the home to the node holding the task. The outcome goes
// back to `origin` as a MigrationReport tagged with `request`.
struct MigrateCommand {
  static constexpr MsgType kType = MsgType::kMigrateCommand;
  std::uint64_t request = 0;
  std::uint32_t origin = 0;
  TaskId task;
  std::uint32_t dest = 0;

  friend bool operator==(const MigrateCommand&, const MigrateCommand&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(request, origin, task, dest);
  }
};

struct MigrationReport {
  static constexpr MsgType kType = MsgType::kMigrationReport;
  std::uint64_t request = 0;
  TaskId task;
  bool ok = false;
  std::string reason;
  std::uint32_t from = 0;
  std::uint32_t to = 0;
  std::uint64_t state_bytes = 0;
  double seconds = 0;  // freeze to resumed at the destination

  friend bool operator==(const MigrationReport&, const MigrationReport&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(request, task);
    wire_bool(ar, ok);
    ar(reason, from, to, state_bytes, seconds);
  }
};

// One task as its host sees it, or (node == 0) only the messages a node forwarded for it.
struct TaskInfo {
  TaskId task;
  std::uint32_t node = 0;
  std::uint64_t epoch = 0;
  double load = 0;
  std::uint64_t forwarded = 0;

  friend bool operator==(const TaskInfo&, const TaskInfo&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(task, node, epoch, load, forwarded);
  }
};

struct TaskListRequest {
  static constexpr MsgType kType = MsgType::kTaskListRequest;
  std::uint64_t request = 0;

  friend bool operator==(const TaskListRequest&, const TaskListRequest&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(request);
  }
};

struct TaskListReply {
  static constexpr MsgType kType = MsgType::kTaskListReply;
  std::uint64_t request = 0;
  std::uint32_t node = 0;
  std::vector<TaskInfo> tasks;

  friend bool operator==(const TaskListReply&, const TaskListReply&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(request, node, tasks);
  }
};

struct StatusRequest {
  static constexpr MsgType kType = MsgType::kStatusRequest;
  std::uint32_t flags = 0;  // reserved, 0

  friend bool operator==(const StatusRequest&, const StatusRequest&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(flags);
  }
};

struct NodeStatus {
  MemberInfo member;
  LoadIndex load;
  NodeCounters counters;

  friend bool operator==(const NodeStatus&, const NodeStatus&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(member, load, counters);
  }
};

struct StatusReply {
  static constexpr MsgType kType = MsgType::kStatusReply;
  std::uint32_t responder = 0;
  std::vector<NodeStatus> nodes;

  friend bool operator==(const StatusReply&, const StatusReply&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(responder, nodes);
  }
};

struct RunRequest {
  static constexpr MsgType kType = MsgType::kRunRequest;
  JobSpec spec;

  friend bool operator==(const RunRequest&, const RunRequest&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(spec);
  }
};

struct JobProgress {
  static constexpr MsgType kType = MsgType::kJobProgress;
  std::uint64_t job = 0;
  std::uint64_t step = 0;   // steps completed
  std::uint64_t steps = 0;  // steps in all
  std::vector<double> values;  // this step's reduction

  friend bool operator==(const JobProgress&, const JobProgress&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, step, steps, values);
  }
};

struct JobResult {
  static constexpr MsgType kType = MsgType::kJobResult;
  std::uint64_t job = 0;
  std::string app;
  std::string checksum;
  std::uint64_t steps = 0;
  std::uint32_t tasks = 0;
  double wall_s = 0;
  std::map<std::string, std::string> details;
  std::vector<double> step_s;       // wall seconds of each step, measured at the root
  std::uint64_t migrations = 0;     // task moves the home heard of
  std::uint32_t recoveries = 0;     // rollbacks after a node failure
  std::uint64_t steps_recomputed = 0;  // steps done twice because of them
  std::uint32_t splits = 0;  // splits and merges announced to the tasks (docs/architecture.md §8), those
  std::uint32_t merges = 0;  // of steps that were rolled back not counted

  friend bool operator==(const JobResult&, const JobResult&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, app, checksum, steps, tasks, wall_s, details, step_s, migrations, recoveries,
       steps_recomputed, splits, merges);
  }
};

struct JobFailed {
  static constexpr MsgType kType = MsgType::kJobFailed;
  std::uint64_t job = 0;
  std::string reason;

  friend bool operator==(const JobFailed&, const JobFailed&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, reason);
  }
};

// Root -> its deputy: a job ended here; keep its end too, so that `driftctl result` finds it
// after the root is gone. `done`: `result` holds the end, else `failure`.
struct JobEnded {
  static constexpr MsgType kType = MsgType::kJobEnded;
  JobEntry entry;
  bool done = false;
  JobResult result;
  JobFailed failure;

  friend bool operator==(const JobEnded&, const JobEnded&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(entry);
    wire_bool(ar, done);
    ar(result, failure);
  }
};

// Client -> any daemon: move a task (answered with a MigrationReport).
struct MigrateRequest {
  static constexpr MsgType kType = MsgType::kMigrateRequest;
  TaskId task;
  std::uint32_t dest = 0;

  friend bool operator==(const MigrateRequest&, const MigrateRequest&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(task, dest);
  }
};

struct TasksRequest {
  static constexpr MsgType kType = MsgType::kTasksRequest;
  std::uint32_t flags = 0;  // reserved, 0

  friend bool operator==(const TasksRequest&, const TasksRequest&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(flags);
  }
};

// Every task of every running job, with the messages forwarded for it summed over all nodes.
struct TasksReply {
  static constexpr MsgType kType = MsgType::kTasksReply;
  std::vector<TaskInfo> tasks;

  friend bool operator==(const TasksReply&, const TasksReply&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(tasks);
  }
};

using WireMessage =
    std::variant<Hello, HelloAuth, Heartbeat, ProbeRequest, ProbeAck, TaskMessage, CreateTasks,
                 TasksCreated, StartJob, ReductionContribution, ReductionResult, TaskFinished,
                 JobEnd, MigrationOffer, MigrationAnswer, MigrationChunk, MigrationDone,
                 LocationUpdate, LocationQuery, MigrateCommand, MigrationReport,
                 TaskListRequest, TaskListReply, StatusRequest, StatusReply, RunRequest,
                 JobProgress, JobResult, JobFailed, MigrateRequest, TasksRequest, TasksReply,
                 BalanceRequest, JobNotice, CheckpointCopy, CheckpointAck, CheckpointCommit,
                 JobRollback, RollbackReady, JobResume, JobRecord, JobAttach,
                 FrameFaultsRequest, FrameFaultsReply, OwnerRequest, OwnerReply, NodeLeaving,
                 DeputyOrder, CheckpointOffer, BalanceReservation, GrainRequest, WorkerLost, AppOffer, AppOfferReply, AppPiece,
                 AppStored, AppFetch, NodeLeft, NodeLeftAck, Refused, SubmitRequest,
                 JobAccepted, JobCancel, JobListRequest, JobListReply, JobEnded, JobForget,
                 QueuedJobRecord, JobActivity>;

}  // namespace drift
