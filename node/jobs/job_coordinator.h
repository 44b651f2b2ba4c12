// The root's side of a job (docs/architecture.md §6): places the tasks on live nodes in proportion to their
// capacity, creates them everywhere before any starts, combines each step's reduction in
// task-index order (so the values are the same for any placement) and sends it to each task at
// the place the home's location cache knows, reports progress to the client, gathers the tasks'
// results into the checksum, and ends the job on every node that ever hosted one of its tasks.
// It checkpoints the job at step boundaries (job_coordinator_recovery.cc, docs/architecture.md §9) and, when
// a node that hosted its tasks dies, rolls every task back to the last committed checkpoint (or
// to the start) on the live nodes and resumes, telling the client. With the runtime option
// chaos_migrations=N it moves N random tasks after every step, a testing aid. Network thread
// only.
#pragma once

#include <algorithm>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "migration/location_cache.h"
#include "node/jobs/job_archive.h"
#include "node/jobs/job_end_disk.h"
#include "node/jobs/job_checkpoints.h"
#include "node/jobs/job_grain.h"
#include "protocol/app_query.h"
#include "protocol/frame.h"
#include "node/net/access_token.h"
#include "node/net/messenger.h"
#include "node/net/peer_connection.h"
#include "protocol/messages.h"

namespace drift {

struct PlacementCandidate {
  std::uint32_t node_id = 0;
  std::string name;
  double capacity = 1;
  bool available = true;  // its owner lets it take work (docs/architecture.md §9); others get no new tasks
  std::string arch;       // a job of the user's own executable runs only where it has one
  std::uint64_t free_memory = 0;  // bytes, as its last heartbeat said; 0: not known yet
};

class JobCoordinator {
 public:
  using CandidateSource = std::function<std::vector<PlacementCandidate>()>;
  // Asks the job's application (its executable on this node, node/workers/app_query_client.h)
  // to check a spec (kValidate) or to combine the tasks' results (kCombine).
  using AppOracle = std::function<void(const AppQuery& query,
                                       std::function<void(Result<AppAnswer>)> answer)>;

  JobCoordinator(Messenger& messenger, LocationCache& locations, CandidateSource candidates,
                 AppOracle oracle, CheckpointPolicy checkpoints = {},
                 std::chrono::seconds keep_results = std::chrono::hours(24 * 7));

  // Asks the application to check the spec, then places and creates the job's tasks. With
  // `follow`, the client gets the job's progress and end; without, only JobAccepted.
  void submit(RunRequest request, const ConnectionPtr& client, bool follow = true);
  // Jobs that outlive their client (job_coordinator_jobs.cc, docs/architecture.md §6.6): the
  // jobs rooted here and those ended here lately (only `who`'s own unless `all`), a cancel
  // from the job's owner or an admin.
  JobListReply list(const Principal& who, bool all);
  void on_cancel(const ConnectionPtr& client, const JobCancel& cancel);
  // The queue (job_queue.cc, docs/architecture.md §6.7): a job that does not fit yet waits here
  // and starts, in the order they came, once it does. At most `max_running` jobs rooted here
  // run at once (jobs.max_running; 0: no limit).
  void set_max_running(std::uint32_t max_running) { max_running_ = max_running; }
  // Who submitted the job (spec.runtime["owner"], written by the daemon it was submitted to).
  static std::string owner_of(const JobSpec& spec);
  // A list of jobs ends past this many bytes: three quarters of net.max_frame_bytes, or of
  // driftctl's frames (kClientMaxBody) if that is less, so that it fits one frame whatever the
  // jobs hold.
  void set_max_frame_bytes(std::size_t frame_bytes) {
    list_bytes_ = std::min(frame_bytes, std::size_t{kClientMaxBody}) / 4 * 3;
  }
  // checkpoint.disk: the ends kept here also go to `disk`, and those a previous run left there
  // are kept again (job_coordinator_jobs.cc). Returns what was loaded, for the log.
  JobEndDisk::Loaded use_end_disk(JobEndDisk disk);
  std::size_t queued_jobs() const { return queue_.size(); }
  // Deputy: a job of the root's ended; its end is kept here too (for `result` after the root
  // is gone).
  void on_ended(const JobEnded& outcome);
  // driftctl result --forget: the end of a job of `client`'s (or any, for an admin) goes, here
  // and at the members keeping it; a member drops its copy when the job's root (`from`) says so.
  void on_forget(const ConnectionPtr& client, const JobForget& forget);
  void on_forget_from(std::uint32_t from, const JobForget& forget);
  void on_tasks_created(const TasksCreated& msg);
  void on_contribution(const ReductionContribution& msg);
  void on_task_finished(const TaskFinished& msg);
  void on_task_failed(std::uint32_t from_node, const JobFailed& msg);
  void on_node_dead(std::uint32_t node_id, const std::string& name);
  void on_checkpoint_ack(const CheckpointAck& ack);
  void on_rollback_ready(const RollbackReady& ready);
  // A restarted node offers copies it kept on disk (checkpoint.disk): they count again, and a job
  // waiting for them recovers.
  void on_checkpoint_offer(const CheckpointOffer& offer);
  // A node's balancer asks to split or merge tasks of a job rooted here (docs/architecture.md §8).
  void on_grain_request(const GrainRequest& request);
  // A node gave up the job's tasks it hosted (its owner's evacuation deadline passed).
  void on_node_leaving(const NodeLeaving& leaving);
  // The node left cleanly with none of the job's tasks (NodeLeft): its end is no failure of it.
  void on_node_left(const NodeLeft& left);
  // A node's worker of the job died with tasks in it: roll back, or fail the second time.
  void on_worker_lost(const WorkerLost& lost);
  // Deputy side (job_coordinator_takeover.cc): keep the root's record of a job; take the job over
  // when its root dies; a client that lost the root attaches to the job's new root.
  void set_deputy_source(std::function<std::uint32_t()> deputy) { deputy_ = std::move(deputy); }
  void on_record(const JobRecord& record);
  // A job queued at its root (job_queue.cc): kept here, queued here if the root goes.
  void on_queued_record(const QueuedJobRecord& record);
  // A node of the job ran a handler of its tasks lately: the job is not stalled (JobActivity).
  void on_activity(const JobActivity& msg, std::uint32_t from);
  void forget_record(std::uint64_t job) {
    records_.erase(job);
    queued_records_.erase(job);
  }
  // The root `from` says we are no longer its deputy for the job, or (it fenced itself) to take
  // the job over now.
  void on_deputy_order(const DeputyOrder& order, std::uint32_t from);
  void on_attach(const ConnectionPtr& client, const JobAttach& attach);
  // This node was declared dead and fences itself, or it leaves the cluster (SIGTERM): its jobs
  // continue under their deputies, each sent a fresh record first; their clients are told to
  // find the new root (`why` says why). Returns (deputy, job) of each job rooted here, for the
  // DeputyOrder that hands it over.
  std::vector<std::pair<std::uint32_t, std::uint64_t>> abandon_all(const std::string& why);
  // The home learned that a task of one of our jobs moved to `node`.
  void on_task_moved(TaskId task, std::uint32_t node, std::uint64_t epoch);
  void on_client_closed(const ConnectionPtr& client);
  // Every second: a job that stopped making progress (no node is holding it deliberately, as
  // an owner's suspend does) rolls back to its last checkpoint.
  void sweep(std::chrono::steady_clock::time_point now);

  std::size_t active_jobs() const { return jobs_.size(); }
  // What the jobs rooted here did since this node started, for /metrics.
  struct Totals {
    std::uint64_t done = 0, failed = 0, cancelled = 0;  // jobs ended, by how
    std::uint64_t recoveries = 0, steps_recomputed = 0, checkpoints = 0;
  };
  const Totals& totals() const { return totals_; }
  // A running job as the dashboard draws it (/api/jobs): its latest step times, the steps it
  // rolled back to and those at which its tasks moved, where its tasks are now.
  struct JobView {
    std::uint64_t first_step = 1;  // the step of step_s[0]
    std::vector<double> step_s;    // the last kViewSteps steps' wall seconds
    std::vector<std::uint64_t> rollbacks;  // steps kept by each rollback (0: the start)
    std::vector<std::uint64_t> moves;      // the step under way at each task move (the latest)
    std::map<std::uint32_t, std::uint32_t> tasks_per_node;
  };
  static constexpr std::size_t kViewSteps = 600, kViewMoves = 2000;
  std::optional<JobView> view(std::uint64_t job) const;
  // The specs of the jobs rooted here and of those this node is the deputy of (their
  // executables are kept: the nodes fetch them from here, and this node combines results).
  std::vector<JobSpec> specs() const;
  // A job may have at most this many tasks (placement and bookkeeping are per task).
  static constexpr std::uint32_t kMaxTasks = 1u << 20;
  // Contributions this many steps ahead of the step being completed are refused (bounded memory
  // at the root; a task waits for each reduction before its next step's).
  static constexpr std::uint64_t kStepWindow = 1024;
  // The queue holds at most this many jobs, and this many of one owner's: a job beyond fails
  // at once, saying so (bounded memory at the root, whatever its users submit).
  static constexpr std::size_t kMaxQueued = 1000;
  static constexpr std::size_t kMaxQueuedPerOwner = 100;

 private:
  // A rollback under way: nodes asked to roll back that have not said they are ready.
  struct Recovery {
    std::set<std::uint32_t> waiting;
    std::uint32_t failed_node = 0;  // 0: no node failed (the job stalled)
    std::uint32_t at_node = 0;      // where it happened, for the client (a lost worker's node)
    std::string cause;              // "node 3 (node3) died", for the log and the client
    std::chrono::steady_clock::time_point declared;  // the failure was declared
    bool from_start = true;
    std::uint64_t step = 0;  // the committed checkpoint's step, unless from_start
    // Set while a task has no copy on a live node and the job waits for a node to restart
    // with its copies on disk (checkpoint.disk); no rollback has been sent. Fails after this.
    std::optional<std::chrono::steady_clock::time_point> copies_deadline;
    std::string missing;  // which task has no copy, for the log and the client
  };
  // A recovery done while the job had no client; told once one attaches.
  struct UnsentRecovery {
    Recovery recovery;
    std::uint64_t redo = 0;  // steps to do again
    double seconds = 0;      // declared -> running again
  };
  struct StepReduction {
    std::vector<std::optional<std::vector<double>>> by_task;
    std::uint32_t received = 0;
  };
  struct Job {
    std::uint64_t id = 0;
    JobSpec spec;
    std::vector<ReduceOp> reduce_ops;  // the application's, one per reduced value
    std::uint32_t spare = 0;           // its spare tasks (Application::spare_tasks)
    std::set<std::uint32_t> nodes;  // every node that hosted a task of the job
    std::set<std::uint32_t> created;
    std::map<std::uint64_t, StepReduction> steps;
    std::vector<std::optional<std::vector<std::uint8_t>>> results;
    std::uint32_t finished = 0;
    bool started = false;
    ConnectionPtr client;
    std::chrono::steady_clock::time_point begin;
    std::chrono::steady_clock::time_point step_began;  // when the current step started
    std::chrono::steady_clock::time_point progress;    // the job last moved on (stall watchdog)
    std::vector<double> step_s;                         // wall seconds of each completed step
    std::map<std::uint32_t, std::uint64_t> epochs;      // highest move count heard per task
    std::uint64_t migrations = 0;
    std::uint32_t chaos_migrations = 0;
    std::uint32_t chaos_grain = 0;        // random splits/merges requested per step (testing)
    std::optional<JobGrain> grain;        // spare tasks and announced splits/merges
    // Fault tolerance (job_coordinator_recovery.cc).
    std::uint32_t generation = 0;
    std::optional<JobCheckpoints> checkpoints;
    std::optional<Recovery> recovering;
    std::uint64_t steps_done = 0;  // most steps ever completed, for the steps recomputed
    std::uint32_t recoveries = 0;
    std::uint64_t steps_recomputed = 0;
    std::uint32_t deputy = 0;  // holds the job's record; 0: none yet
    std::optional<UnsentRecovery> unsent;  // a recovery no client heard of (it attaches later)
    std::uint32_t workers_lost = 0;      // the second ends the job
    std::uint64_t next_step = 0;         // the step to complete next in this generation
    std::uint32_t stalls_after_last_step = 0;  // the third ends the job (unfinished tasks)
    std::vector<std::uint64_t> rollbacks;  // steps kept by each rollback, for the dashboard
    std::vector<std::uint64_t> move_steps; // the step under way at each task move (at most
                                           // kViewMoves, the latest)
    bool combining = false;              // every task finished: the application combines
  };

  // What a submitted job needs to start: a reason it never can (`error`) or cannot yet
  // (`wait`), else where its tasks go.
  struct JobPlan {
    std::string error, wait;
    std::vector<std::uint32_t> placement;  // node of each task
    std::string sat_out;  // nodes without an executable for their architecture, for the client
    std::string unheard;  // nodes whose architecture is not known yet (not heard from)
    CheckpointPolicy policy;
    std::uint32_t chaos = 0, chaos_grain = 0;
  };
  // A job waiting in the queue.
  struct QueuedJob {
    std::uint64_t id = 0;
    JobSpec spec;
    AppAnswer app;
    ConnectionPtr client;  // follows it (run, attach); null: nobody does
    std::chrono::steady_clock::time_point since;
    std::string reason;  // why it waits, as the client and `driftctl jobs` see it
    std::uint32_t deputy = 0;  // holds its QueuedJobRecord; 0: none
  };

  std::uint64_t next_job_id();
  void start_job(JobSpec spec, const AppAnswer& app, const ConnectionPtr& client, bool follow);
  JobPlan plan_job(const JobSpec& spec, const AppAnswer& app) const;
  void launch(std::uint64_t id, JobSpec spec, const AppAnswer& app, JobPlan plan,
              const ConnectionPtr& client, bool follow);
  // job_queue.cc. Why the job cannot start now (empty: it can): jobs.max_running, or its
  // memory estimate above what the available nodes (`free_memory`, 0 = not known) have free.
  std::string admission(const JobSpec& spec, const AppAnswer& app,
                        const std::vector<std::uint64_t>& free_memory) const;
  // The memory a task needs as the user stated it (runtime "memory", driftctl run --memory):
  // nullopt if not stated or not a size (plan_job refuses the job then).
  static std::optional<std::uint64_t> memory_per_task(const JobSpec& spec);
  void enqueue(std::uint64_t id, JobSpec spec, const AppAnswer& app, const ConnectionPtr& client,
               bool follow, const std::string& reason);
  // Starts the queued jobs that fit now (every second, from sweep()).
  void retry_queue();
  QueuedJob* find_queued(std::uint64_t id);
  JobEntry entry_of(const QueuedJob& queued) const;
  bool attach_queued(const ConnectionPtr& client, std::uint64_t id);
  bool cancel_queued(const ConnectionPtr& client, std::uint64_t id);
  // The job leaves the queue unstarted (cancelled, or it never can start): its end is kept here
  // and at its deputy.
  void end_queued(const QueuedJob& queued, JobState state, const std::string& reason);
  // To the deputy `deputy_` names now (0: none), telling the one before to drop it.
  void send_queued_record(QueuedJob& queued, std::uint32_t deputy);
  // Deputy side: the job's root is gone; the job waits in this node's queue.
  void take_over_queued(const QueuedJobRecord& record, const std::string& why);
  JobEntry entry_of(const Job& job, JobState state) const;
  // The job ends here (its end goes to the archive): done, failed or cancelled.
  void archive(const Job& job, JobState state, JobArchive::End end);
  // The end goes to the job's deputy too (JobEnded), which keeps it and drops its record.
  void tell_deputy(std::uint32_t deputy, const JobEntry& entry, const JobArchive::End& end);
  // Into the archive, and on disk with checkpoint.disk.
  void keep_end(JobEntry entry, JobArchive::End end);
  // Whether `who` may act on a job of `owner`'s: its owner, or an admin. Else the Refused to send.
  static std::optional<Refused> refuse_unless_owner(const Principal& who, const std::string& owner,
                                                    const char* request, const char* action);
  void on_combined(std::uint64_t job_id, std::uint32_t generation, Result<AppAnswer> answer);
  void complete_step(Job& job, std::uint64_t step);
  void complete_job(Job& job);
  void fail(std::uint64_t job_id, const std::string& reason,
            JobState state = JobState::kFailed);
  void end_everywhere(const Job& job, bool failed, const std::string& reason);
  void reply(const ConnectionPtr& client, WireMessage msg);
  void send_reduction(const Job& job, std::uint64_t step, const std::vector<double>& values,
                      bool checkpoint = false, const std::vector<GrainChange>& changes = {});
  std::uint64_t chaos_random();
  void stir(const Job& job);
  Job* find(std::uint64_t id);
  // job_coordinator_recovery.cc
  Result<CheckpointPolicy> checkpoint_policy(const JobSpec& spec) const;
  bool checkpoint_due(Job& job, std::uint64_t step, const std::vector<double>& values);
  // `failed`: the node lost (0: none, the job stalled), not used for the job's tasks unless it
  // came back (`failed_is_back`); `cause` says what happened, on node `at` (0: `failed`).
  void recover(Job& job, std::uint32_t failed, const std::string& cause,
               bool failed_is_back = false, std::uint32_t at = 0);
  // recover() found a task with no copy on a live node: wait for a restart (checkpoint.disk).
  void await_copies(Job& job, Recovery r, const std::string& missing);
  void sweep_awaiting(Job& job, std::chrono::steady_clock::time_point now);
  void resume(Job& job);
  JobNotice recovered_notice(const Job& job, const Recovery& r, std::uint64_t redo,
                             double seconds) const;
  std::set<std::uint32_t> everyone(const Job& job) const;
  // job_coordinator_takeover.cc
  // The node that should hold the records of jobs rooted here now (0: none).
  std::uint32_t current_deputy() const { return deputy_ ? deputy_() : 0; }
  // `held` (a job's deputy) becomes `to`; the one before is told to drop its record of `job`,
  // since two holders would both take the job over. False when there is no deputy now.
  bool hand_record_to(std::uint64_t job, std::uint32_t& held, std::uint32_t to);
  void send_record(Job& job);
  // `why`: "its root, node 1 (node1), died", for the log and the client.
  void take_over(const JobRecord& record, const std::string& why);

  Messenger& messenger_;
  LocationCache& locations_;
  CandidateSource candidates_;
  AppOracle oracle_;
  CheckpointPolicy checkpoint_policy_;
  std::function<std::uint32_t()> deputy_;
  std::map<std::uint64_t, JobRecord> records_;  // jobs we are the deputy of
  std::map<std::uint64_t, QueuedJobRecord> queued_records_;  // queued jobs we are the deputy of
  // Queued records kept here, of all roots together (bounded memory, whatever peers send).
  static constexpr std::size_t kMaxQueuedRecords = 4 * kMaxQueued;
  std::uint64_t chaos_seed_ = 0x9e3779b97f4a7c15ULL;
  std::map<std::uint64_t, Job> jobs_;
  std::vector<QueuedJob> queue_;  // in the order they came
  std::uint32_t max_running_ = 0;
  std::size_t list_bytes_ = std::size_t{6} << 20;
  JobArchive archive_;
  std::optional<JobEndDisk> end_disk_;
  std::uint64_t counter_ = 0;
  Totals totals_;
};

}  // namespace drift
