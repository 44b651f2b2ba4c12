// driftd: one node. Owns the network thread's io_context and the parts that run on it —
// transport, membership, task host and its worker processes, job coordinator — and routes every
// message between them (docs/architecture.md §3). Network-thread state is touched only from
// io_context handlers. It runs no application code: tasks run in worker processes.
#pragma once

#include <asio.hpp>

#include <memory>
#include <set>

#include "migration/forwarding_table.h"
#include "migration/location_cache.h"
#include "node/balance/balancer_service.h"
#include "node/config/config.h"
#include "node/jobs/job_coordinator.h"
#include "node/machine/cpu_share.h"
#include "node/machine/sampled.h"
#include "node/machine/step_overhead.h"
#include "node/balance/load_meter.h"
#include "node/membership/member_table.h"
#include "node/membership/membership_service.h"
#include "node/tasks/message_router.h"
#include "node/net/unknown_peer_queue.h"
#include "node/net/messenger.h"
#include "node/balance/partner_book.h"
#include "node/recovery/recovery_agent.h"
#include "node/recent_set.h"
#include "node/tasks/migration_service.h"
#include "node/owner/owner_service.h"
#include "node/tasks/task_host.h"
#include "node/tasks/task_list_query.h"
#include "node/workers/app_query_slots.h"
#include "node/workers/binary_cache.h"
#include "node/workers/binary_service.h"
#include "node/net/log_limiter.h"
#include "node/owner/owner_socket.h"
#include "node/http/http_endpoint.h"
#include "observe/metrics_text.h"
#include "node/net/idle_lane.h"
#include "node/net/transport.h"

namespace drift {

class Daemon final : public Messenger {
 public:
  // `containment` (make_containment) says how workers are started; it must outlive the daemon.
  Daemon(NodeConfig config, const Containment& containment);
  ~Daemon() override;

  // Binds the listening port; the error names the key and where it was set.
  Status start();
  // Runs the network thread on the caller until SIGINT/SIGTERM or stop().
  void run();
  void stop();

  std::uint32_t self_id() const override { return config_.node_id; }
  void send_to_node(std::uint32_t node_id, WireMessage msg) override;
  void send_bulk_to_node(std::uint32_t node_id, WireMessage msg) override;
  void send_frame(std::uint32_t node_id, Frame frame, bool bulk = true) override;

 private:
  void on_message(const ConnectionPtr& conn, WireMessage&& msg);
  void on_node_message(std::uint32_t from, WireMessage&& msg);
  void on_client_message(const ConnectionPtr& conn, WireMessage&& msg);
  void on_effects(HandlerEffects&& effects);
  void on_sent(TaskMessage&& msg);
  void on_worker_lost(const JobInfo& job, const std::vector<std::uint32_t>& tasks,
                      const std::string& why);
  void find_executable(const JobInfo& job, TaskHost::ExecutableReady ready);
  std::set<std::string> executables_in_use() const;
  void ask_app(const AppQuery& query, std::function<void(Result<AppAnswer>)> answer);
  void on_transition(const MemberTransition& t);
  void on_create(const CreateTasks& req);
  void on_reduction(const ReductionResult& r, std::uint32_t from);
  void on_location_update(const LocationUpdate& u);
  void on_job_end(std::uint64_t job);
  void reset_job(std::uint64_t job);  // a rollback: forget the job's routing and moves here
  void end_orphans(std::chrono::steady_clock::time_point now);
  std::uint32_t buddy() const;
  Status use_checkpoint_disk();
  void on_migrate_request(const ConnectionPtr& conn, const MigrateRequest& req);
  void on_migration_report(const MigrationReport& report);
  void on_tasks_request(const ConnectionPtr& conn);
  void on_frame_faults(const ConnectionPtr& conn, const FrameFaultsRequest& req);
  TaskListReply task_list(std::uint64_t request) const;
  void send(std::uint32_t node_id, WireMessage msg, bool bulk);
  static Frame frame_of(WireMessage&& msg);
  static constexpr std::size_t kZeroCopyBytes = 64u << 10;
  void sweep();
  // READY=1 to systemd once listening and joined: a member answered (or no seed is configured,
  // or 10 s passed: a node restarting alone is still a member).
  void watch_readiness();
  void on_reload();
  void reload_revoked_tokens();
  NodeCounters own_counters() const;
  void on_signal();
  void watch_leave();
  void on_left_ack(std::uint64_t job);
  std::size_t alive_members() const;
  bool stale(const Hello& peer);
  void fence(const std::string& reason);
  LoadIndex load_index();
  double now_s() const;  // seconds since the daemon started
  StatusReply status();
  // daemon_http.cc: the HTTP endpoint (http.listen) and what it serves.
  Status start_http();
  Result<Principal> http_principal(const std::string& authorization) const;
  NodeMetrics metrics();
  std::vector<PlacementCandidate> candidates() const;

  NodeConfig config_;
  const Containment& containment_;
  std::vector<std::string> apps_path_;
  std::uint64_t incarnation_;
  Emulator emulator_;  // off unless emulate.speed > 0; its start is the meter's time zero
  CpuShareSampler cpu_share_;  // what the node got of its CPU quota (external_load_now)
  StepOverhead step_overhead_;  // CPU per step beyond the computes (real machines), advertised
  std::uint64_t grain_changes_here_ = 0;  // splits and merges our tasks took part in
  // On a real machine, read at most every 500 ms and 200 ms (sampled.h): every membership round
  // and every status request asks, the load average moves every 5 s.
  Sampled<double> external_load_;
  mutable Sampled<std::uint64_t> free_memory_;  // a cache: candidates() const reads it
  double capacity_;    // static estimate, unloaded: node.capacity or the start-up benchmark
  LoadMeter meter_;    // what this node measures and advertises (docs/architecture.md §8 phase 1)
  asio::io_context io_;
  asio::signal_set signals_;
  asio::signal_set reload_;  // SIGHUP: reopen the log file (logrotate), re-read revoked tokens
  std::shared_ptr<TlsContext> tls_;  // every connection's (null: test.plaintext)
  IdleLane bulk_lane_;  // bulk steps of peer connections, run when the loop is idle
  std::uint64_t forged_senders_ = 0;  // node messages naming another node as their sender
  LogLimiter refusal_log_{20, std::chrono::seconds(10)};
  Transport transport_;
  MemberTable table_;
  MembershipService membership_;
  BinaryCache binary_cache_;  // executables shipped with jobs, in data_dir/apps
  BinaryService binaries_;
  TaskHost host_;
  LocationCache locations_;
  ForwardingTable pointers_;
  NodeCounters counters_;
  std::map<std::uint32_t, NodeCounters> peer_counters_;
  MessageRouter router_;
  MigrationService migration_;
  PartnerBook partners_;  // who each hosted task talks to, for the balancer's locality term
  BalancerService balancer_;
  OwnerService owner_;  // owner reclaim: suspends, vacates and releases this node (docs/architecture.md §9)
  OwnerSocket owner_socket_;  // the owner's status, reclaim and release, on owner.socket
  JobCoordinator coordinator_;
  RecoveryAgent recovery_;
  // Jobs whose root was declared dead, waiting for its deputy's rollback.
  struct Orphan {
    std::uint32_t root = 0;
    std::chrono::steady_clock::time_point since;
  };
  static constexpr std::chrono::seconds kOrphanPatience{10};
  std::map<std::uint64_t, Orphan> orphans_;
  TaskListQuery task_lists_;
  std::map<std::uint64_t, ConnectionPtr> migrate_requests_;
  RecentSet ended_jobs_{4096};  // so late state for an ended job is refused
  // Jobs a handler of a task here ran for since the last sweep: job -> (root, generation), told
  // to the root (JobActivity) at the next sweep. At most the jobs hosted here.
  JobRoots active_jobs_;
  UnknownPeerQueue unknown_peers_;  // messages for nodes not met yet (node/net/unknown_peer_queue.h)
  std::uint64_t next_request_ = 0;
  std::uint64_t queries_asked_ = 0;  // names their memory cgroups
  AppQuerySlots query_slots_;
  asio::steady_timer sweep_timer_;
  asio::steady_timer ready_timer_;  // until systemd is told READY=1; then while leaving
  static constexpr std::chrono::seconds kLeaveDeadline{20};  // within systemd's TimeoutStopSec
  // On stopping, how long the connections may take to end after their last frames (peers answer
  // our end of the stream with theirs within a round trip, unless their network thread is stuck).
  static constexpr std::chrono::milliseconds kLingerOnStop{500};
  // How long task messages for a node known as dead wait for it to be back (a new incarnation
  // spreads to every member within a few heartbeat rounds).
  static constexpr std::chrono::seconds kDeadPeerHold{3};
  bool leaving_ = false;
  std::chrono::steady_clock::time_point leave_deadline_;
  std::set<std::uint64_t> leaving_jobs_;  // jobs whose root has not acknowledged NodeLeft
  bool left_sent_ = false;
  std::uint64_t leave_forwarded_ = 0;  // messages forwarded when last looked (watch_leave)
  std::chrono::steady_clock::time_point leave_quiet_since_{};
  std::chrono::steady_clock::time_point left_acks_deadline_;
  std::chrono::steady_clock::time_point started_;
  bool stopping_ = false;
  // Last, so that it goes first: its threads end before anything they ask about.
  std::unique_ptr<HttpEndpoint> http_;
};

}  // namespace drift
