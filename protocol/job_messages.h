// Jobs that outlive their client (docs/architecture.md §6.6): submitting without following the
// job, listing a node's jobs, cancelling one, forgetting an ended one, and a queued job's record at
// its root's deputy. Part of WireMessage (messages.h). A job's end, once
// reached, stays at its root for a while (and its deputy: JobEnded, in messages.h after
// JobResult); JobAttach (recovery_messages.h) then answers with it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <drift/types.h>
#include <drift/wire_field.h>
#include "protocol/msg_type.h"
#include "protocol/wire_types.h"

namespace drift {

enum class JobState : std::uint8_t {
  kQueued = 0,
  kRunning = 1,
  kRecovering = 2,
  kDone = 3,
  kFailed = 4,
  kCancelled = 5,
};
inline constexpr std::uint8_t kJobStateMax = 5;
const char* to_string(JobState s);
inline bool ended(JobState s) { return s >= JobState::kDone; }

// One job as its root sees it.
struct JobEntry {
  std::uint64_t job = 0;
  std::string name;   // --name, or the application's
  std::string owner;  // who submitted it (a token's name, or "cluster-secret")
  std::string app;
  JobState state = JobState::kRunning;
  std::uint64_t step = 0;  // steps completed
  std::uint64_t steps = 0;
  std::uint32_t tasks = 0;
  double elapsed_s = 0;  // since submission (until the end, once ended)
  std::vector<std::uint32_t> nodes;  // that hosted its tasks
  std::uint32_t root = 0;
  std::string reason;  // why it failed or who cancelled it
  double ended_ago_s = 0;  // seconds since it ended (ended jobs only)

  friend bool operator==(const JobEntry&, const JobEntry&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, name, owner, app);
    wire_enum<kJobStateMax>(ar, state);
    ar(step, steps, tasks, elapsed_s, nodes, root, reason, ended_ago_s);
  }
};

// Client -> daemon: run this job, but do not follow it: answered with JobAccepted (or JobFailed
// if it cannot start), and the client may leave.
struct SubmitRequest {
  static constexpr MsgType kType = MsgType::kSubmitRequest;
  JobSpec spec;

  friend bool operator==(const SubmitRequest&, const SubmitRequest&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(spec);
  }
};

struct JobAccepted {
  static constexpr MsgType kType = MsgType::kJobAccepted;
  std::uint64_t job = 0;
  std::uint32_t root = 0;

  friend bool operator==(const JobAccepted&, const JobAccepted&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, root);
  }
};

// Client -> the job's root: end the job now. Its owner or an admin only (else Refused); answered
// with the JobFailed every attached client gets too, or a JobNotice kNotHere naming the root.
struct JobCancel {
  static constexpr MsgType kType = MsgType::kJobCancel;
  std::uint64_t job = 0;

  friend bool operator==(const JobCancel&, const JobCancel&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job);
  }
};

// Client -> daemon: the jobs rooted there, running and recently ended; only the asker's own
// unless `all`.
struct JobListRequest {
  static constexpr MsgType kType = MsgType::kJobListRequest;
  bool all = false;

  friend bool operator==(const JobListRequest&, const JobListRequest&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    wire_bool(ar, all);
  }
};

struct JobListReply {
  static constexpr MsgType kType = MsgType::kJobListReply;
  std::uint32_t node = 0;
  std::vector<JobEntry> jobs;

  friend bool operator==(const JobListReply&, const JobListReply&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(node, jobs);
  }
};

// Client -> a job's root (driftctl result --forget): drop the kept end of a job that ended; the
// root answers with the same message once it has, and tells the members so (the deputy keeping
// the end too drops it when the job's root says so). Refused for anyone but its owner or an
// admin; JobFailed says why nothing was forgotten.
struct JobForget {
  static constexpr MsgType kType = MsgType::kJobForget;
  std::uint64_t job = 0;

  friend bool operator==(const JobForget&, const JobForget&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job);
  }
};

// A job's root -> its deputy (job_queue.cc): a job of the root's waits in its queue. The deputy
// keeps it and, if the root dies or hands its jobs over, queues it itself; dropped when the job
// starts (its JobRecord replaces it), ends in the queue (JobEnded) or another node becomes the
// deputy (DeputyOrder). What the application said of the job is carried: its executable may not
// run on the deputy.
struct QueuedJobRecord {
  static constexpr MsgType kType = MsgType::kQueuedJobRecord;
  std::uint64_t job = 0;
  std::uint32_t root = 0;
  JobSpec spec;
  std::vector<std::uint8_t> reduce_ops;  // ReduceOp, 0..kReduceOpWireMax
  std::uint32_t spare_tasks = 0;
  std::uint64_t memory_per_task = 0;     // the application's estimate; 0: none
  std::string reason;                    // why it waits
  double waited_s = 0;                   // how long it has waited so far

  friend bool operator==(const QueuedJobRecord&, const QueuedJobRecord&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, root, spec, reduce_ops, spare_tasks, memory_per_task, reason, waited_s);
  }
};

// A node hosting tasks of a job -> the job's root, at most once a second: a handler of one of its
// tasks ended since the last one. The root's stall watchdog (checkpoint.stall_ms) counts it as
// progress: a step that a slow node needs long for is no lost message, however long it takes,
// while its tasks keep running handlers; tasks that all wait for a message that never comes
// run none. Counted only from a node of the job, for the job's current generation.
struct JobActivity {
  static constexpr MsgType kType = MsgType::kJobActivity;
  std::uint64_t job = 0;
  std::uint64_t generation = 0;

  friend bool operator==(const JobActivity&, const JobActivity&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(job, generation);
  }
};

}  // namespace drift
