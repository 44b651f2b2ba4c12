#include "node/daemon.h"
#include "node/net/loop_watch.h"

#include "node/daemon_params.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "node/machine/emulated_compute.h"
#include "node/workers/app_locator.h"
#include "node/workers/job_binaries.h"
#include "node/workers/machine_arch.h"
#include "node/workers/app_query_client.h"
#include "node/machine/external_load.h"
#include "node/service/systemd_notify.h"
#include "node/machine/machine_stats.h"
#include <drift/archives.h>
#include "protocol/codec.h"

namespace drift {

using namespace daemon_setup;

Daemon::Daemon(NodeConfig config, const Containment& containment)
    : config_(std::move(config)),
      containment_(containment),
      apps_path_(apps_path(config_.worker.apps_path)),
      incarnation_(new_incarnation()),
      emulator_(config_.emulate, std::chrono::steady_clock::now()),
      external_load_(std::chrono::milliseconds(500),
                     [this] {
                       return external_load_now(emulator_, now_s(), host_.worker_pids(),
                                                &cpu_share_);
                     }),
      free_memory_(std::chrono::milliseconds(200), read_available_memory),
      capacity_(static_capacity(config_, emulator_)),
      meter_(meter_params(config_, emulator_, capacity_),
             [this](double t) {
               // The emulated schedule changes with its time; the machine's readings are kept.
               if (emulator_.enabled()) {
                 return external_load_now(emulator_, t, host_.worker_pids(), &cpu_share_);
               }
               return external_load_.get();
             }),
      signals_(io_, SIGINT, SIGTERM),
      reload_(io_, SIGHUP),
      tls_(member_tls(config_)),
      transport_(io_, transport_params(config_, tls_, &bulk_lane_),
                 self_hello(config_, incarnation_)),
      table_(self_member(config_, incarnation_), detector_params(config_),
             suspect_timeout(config_), config_.group_size),
      membership_(io_, transport_, table_, membership_params(config_),
                  transport_params(config_, tls_).handshake, [this] { return load_index(); }),
      binary_cache_(config_.data_dir + "/apps", config_.worker.cache_bytes,
                    config_.worker.max_binary_bytes),
      binaries_(io_, *this, binary_cache_, config_.chunk_bytes),
      host_(io_, containment, task_host_params(config_, emulator_, containment),
            TaskHost::Hooks{
                [this](HandlerEffects&& e) { on_effects(std::move(e)); },
                [this](TaskMessage&& m) { on_sent(std::move(m)); },
                [this](const JobInfo& job, const std::vector<std::uint32_t>& tasks,
                       const std::string& why) { on_worker_lost(job, tasks, why); },
                [this](const JobInfo& job, TaskHost::ExecutableReady ready) {
                  find_executable(job, std::move(ready));
                }}),
      router_(*this, host_, locations_, pointers_, counters_),
      migration_(*this, host_, router_, locations_, pointers_, counters_,
                 MigrationService::Params{config_.chunk_bytes, config_.accept_tasks,
                                          config_.memory_limit, std::chrono::milliseconds(30000),
                                          2 * config_.heartbeat_interval, config_.arch()},
                 [this](std::uint32_t id) { return membership_.is_alive(id); },
                 [this] { return free_memory_.get(); },
                 [this](std::uint64_t job) { return ended_jobs_.contains(job); }),
      balancer_(io_, balancer_params(config_), *this, table_, meter_, host_, migration_,
                locations_, partners_, counters_),
      owner_(io_, config_.owner, config_.accept_tasks,
             [this] { return external_load_now(emulator_, now_s(), host_.worker_pids()); },
             host_, migration_,
             balancer_, table_),
      owner_socket_(io_, {config_.owner.socket, config_.owner.group, config_.owner.users},
                    [this](const WireMessage& request, const std::string& user) -> WireMessage {
                      if (std::holds_alternative<StatusRequest>(request)) return status();
                      const auto action = std::get<OwnerRequest>(request).action;
                      spdlog::info("{} (at this PC) asked it to {}", user, to_string(action));
                      return owner_.command(action);
                    }),
      coordinator_(*this, locations_, [this] { return candidates(); },
                   [this](const AppQuery& q, std::function<void(Result<AppAnswer>)> answer) {
                     ask_app(q, std::move(answer));
                   },
                   config_.checkpoint, config_.keep_results),
      recovery_(*this, host_, locations_,
                RecoveryAgent::Hooks{[this] { return buddy(); },
                                     [this](std::uint64_t job) { reset_job(job); },
                                     [this](std::uint32_t id) { return membership_.is_alive(id); },
                                     config_.chunk_bytes, host_.max_state()}),
      task_lists_(io_),
      sweep_timer_(io_),
      ready_timer_(io_) {}

Daemon::~Daemon() {
  bulk_lane_.clear();  // the connections its steps hold go while the transport is there
  host_.end_all();
}

Status Daemon::start() {
  Endpoint at{config_.address, config_.port};
  if (auto st = transport_.listen(at); !st) {
    return Status::error("node.port = " + std::to_string(config_.port) + " (" +
                         config_.where("node.port") + "): " + st.message());
  }
  // A convenience for the person at the PC, not the daemon's purpose: without it (no /run/drift
  // when started by hand, another daemon's path) the daemon runs on and says why.
  if (auto st = owner_socket_.listen(); !st) {
    spdlog::warn("no owner socket: {} ({})", st.message(), config_.where("owner.socket"));
  }
  if (auto st = start_http(); !st) return st;
  transport_.on_message([this](const ConnectionPtr& c, WireMessage&& m) {
    on_message(c, std::move(m));
  });
  transport_.on_peer([this](const ConnectionPtr& c) { membership_.on_peer_hello(c->peer()); });
  transport_.on_chunk([this](const ConnectionPtr& c, const ChunkView& chunk) {
    const LoopHold hold("MigrationChunk");
    if (c->peer().role != PeerRole::kNode) return c->close("refused: a client sent state");
    if (!stale(c->peer())) migration_.on_chunk(chunk, c->peer().node_id);  // else dropped
  });
  transport_.on_connection_closed([this](const ConnectionPtr& c, const std::string&) {
    if (c->peer().role != PeerRole::kClient) return;
    coordinator_.on_client_closed(c);
    binaries_.on_client_closed(c);
    std::erase_if(migrate_requests_, [&](const auto& entry) { return entry.second == c; });
  });
  membership_.subscribe([this](const MemberTransition& t) { on_transition(t); });
  coordinator_.set_deputy_source([this] { return buddy(); });
  coordinator_.set_max_running(config_.max_running);
  // The owner wants the machine and tasks are still here: their jobs roll back without them.
  if (containment_.cpu_group) {
    owner_.on_lend_cpu([group = containment_.cpu_group](bool on) { group->lend(on); });
  }
  owner_.on_evacuation_deadline([this](const std::vector<TaskId>& left) {
    std::set<std::uint64_t> jobs;
    for (TaskId t : left) jobs.insert(t.job);
    for (std::uint64_t job : jobs) {
      spdlog::warn("job {:#x}: the evacuation deadline passed with its tasks still here; they are "
                   "dropped and the job rolls back to its last checkpoint elsewhere", job);
      send_to_node(locations_.home(job), NodeLeaving{job, config_.node_id,
                                                     "the owner's evacuation deadline passed"});
      reset_job(job);
      host_.end(job);
    }
  });
  membership_.report_counters([this] { return own_counters(); });
  router_.set_arrival_check([this](TaskId t) { return migration_.arriving(t); });
  migration_.set_balance_check([this](const BalanceBasis& b) { return balancer_.recheck(b); });
  migration_.set_installed_hook([this](TaskId t, const BalanceBasis& b) {
    if (b.balance) meter_.expect(t, b.task_load);
  });
  membership_.count_into(counters_);
  on_signal();
  if (config_.checkpoint.disk) {
    if (auto st = use_checkpoint_disk(); !st) return st;
  }
  if (auto st = binary_cache_.open(); !st) {
    spdlog::warn("jobs that ship their executable cannot run here: {} (node.data_dir, {})",
                 st.message(), config_.where("node.data_dir"));
  }
  membership_.start(config_.seeds);
  balancer_.start();
  owner_.start();
  sweep();
  started_ = std::chrono::steady_clock::now();
  watch_readiness();
  on_reload();
  spdlog::info("driftd node {} '{}' listening on {}, cluster '{}', incarnation {}, capacity "
               "{:.3g}, {} workers",
               config_.node_id, config_.name, at.to_string(), config_.cluster_name, incarnation_,
               capacity_, worker_count(config_.workers));
  spdlog::info("capacity {} (sensing {}, EWMA weight {}), balance.strategy {}, static estimate "
               "{:.4g} load/s",
               to_string(config_.balance.capacity), to_string(config_.balance.sensing),
               config_.balance.capacity_ewma, to_string(config_.balance.strategy), capacity_);
  if (config_.test.hooks) {
    const FrameFaults::Settings s{config_.test.drop_frames, config_.test.duplicate_frames,
                                  config_.test.delay_frames_ms};
    transport_.set_frame_faults(s);
    membership_.set_heartbeat_drop(s.drop);
    spdlog::warn("TEST HOOKS ON (test.* config keys): clients may inject frame faults; "
                 "node-to-node frames now: {}. Never on a production cluster.",
                 s.text());
  }
  if (emulator_.enabled()) {
    spdlog::info("emulated machine: speed {}, {} work units/s at speed 1, {} external-load "
                 "ramp(s); load average = the emulated external load",
                 config_.emulate.speed, config_.emulate.unit_rate, config_.emulate.load.size());
  } else {
    spdlog::info("real machine (no emulation): external load = load average - own runnable "
                 "threads, per core");
  }
  return Status::ok();
}

void Daemon::run() { run_with_idle_lane(io_, bulk_lane_); }

void Daemon::stop() {
  asio::post(io_, [this] {
    if (stopping_) return;
    stopping_ = true;
    notify_stopping();
    membership_.stop();
    balancer_.stop();
    owner_.stop();
    owner_socket_.close();
    if (http_) http_->close();
    sweep_timer_.cancel();
    transport_.shutdown();
    signals_.cancel();
    reload_.cancel();
    ready_timer_.cancel();
    host_.end_all();
    io_.stop();
  });
}

void Daemon::send_to_node(std::uint32_t node_id, WireMessage msg) {
  send(node_id, std::move(msg), false);
}

void Daemon::send_bulk_to_node(std::uint32_t node_id, WireMessage msg) {
  send(node_id, std::move(msg), true);
}

void Daemon::send(std::uint32_t node_id, WireMessage msg, bool bulk) {
  if (node_id == config_.node_id) {
    asio::post(io_, [this, msg = std::move(msg)]() mutable {
      on_node_message(config_.node_id, std::move(msg));
    });
    return;
  }
  if (!membership_.is_alive(node_id)) {
    const bool met = table_.find(node_id) != nullptr;
    const auto* task_msg = std::get_if<TaskMessage>(&msg);
    // Not met yet: it waits until the node joins. Known as dead: a task message waits a little,
    // as the node may be back already (a new incarnation a job's root placed tasks on, that this
    // node has not heard of yet); otherwise recovery takes over.
    if ((!met || task_msg) && !stopping_) {
      const std::size_t bytes = 256 + (task_msg ? task_msg->payload.size() : 0);
      const auto type = type_of(msg);
      const auto wait = met ? std::optional<UnknownPeerQueue::Clock::duration>(kDeadPeerHold)
                            : std::nullopt;
      if (unknown_peers_.hold(node_id, std::move(msg), bytes, std::chrono::steady_clock::now(),
                              wait)) {
        return;
      }
      if (!met) {
        spdlog::warn("dropped a {} for node {}, not met yet: too much waits for it already",
                     to_string(type), node_id);
      }
      return;
    }
    spdlog::debug("not sending {} to node {}: not a live member", to_string(type_of(msg)),
                  node_id);
    return;
  }
  auto address = membership_.address_of(node_id);
  if (!address) {
    spdlog::warn("no address for node {}; dropped a {}", node_id, to_string(type_of(msg)));
    return;
  }
  transport_.send(node_id, *address, frame_of(std::move(msg)), bulk);
}

// A large task payload is written from its own buffer instead of being copied into the frame.
Frame Daemon::frame_of(WireMessage&& msg) {
  auto* task_msg = std::get_if<TaskMessage>(&msg);
  if (!task_msg || task_msg->payload.size() < kZeroCopyBytes) return make_frame(encode(msg));
  auto payload = std::make_shared<const std::vector<std::uint8_t>>(std::move(task_msg->payload));
  task_msg->payload.clear();
  Frame frame = make_frame(encode_prefix(*task_msg, payload->size()));
  frame.tail = std::span<const std::uint8_t>(*payload);
  frame.tail_owner = std::move(payload);
  return frame;
}

void Daemon::send_frame(std::uint32_t node_id, Frame frame, bool bulk) {
  if (node_id == config_.node_id) return;  // only remote peers get raw frames
  auto address = membership_.address_of(node_id);
  if (!address || !membership_.is_alive(node_id)) return;
  transport_.send(node_id, *address, std::move(frame), bulk);
}

// Every second: re-ask homes for messages waiting too long, drop unused forwarding pointers, tell
// the roots of the jobs whose tasks ran here, or whose state moved in or out or came from their
// worker lately, that they did (JobActivity).
void Daemon::sweep() {
  const LoopHold hold("the daemon's sweep");
  for (const auto& e : unknown_peers_.expire(std::chrono::steady_clock::now())) {
    if (table_.find(e.node) && !membership_.is_alive(e.node)) {
      spdlog::debug("dropped {} task message(s) for node {}: dead, and not back", e.messages,
                    e.node);
    } else {
      spdlog::warn("dropped {} message(s) for node {}: it did not join within 10 s", e.messages,
                   e.node);
    }
  }
  router_.sweep(std::chrono::steady_clock::now(), config_.pointer_ttl);
  const auto now = std::chrono::steady_clock::now();
  // State on its way counts while a piece of it came within checkpoint.stall_ms: a slow node
  // takes in chunks in bursts between throttled periods, a lost one stops them for good.
  const auto window = config_.checkpoint.stall.count() > 0 ? config_.checkpoint.stall
                                                           : std::chrono::milliseconds(30000);
  active_jobs_.merge(migration_.moving_jobs(now - window));
  active_jobs_.merge(host_.jobs_sending_state(now - window));
  for (const auto& [job, to] : active_jobs_) send_to_node(to.first, JobActivity{job, to.second});
  active_jobs_.clear();
  end_orphans(std::chrono::steady_clock::now());
  coordinator_.sweep(std::chrono::steady_clock::now());
  recovery_.sweep(std::chrono::steady_clock::now());
  binaries_.sweep(std::chrono::steady_clock::now(), executables_in_use());
  sweep_timer_.expires_after(std::chrono::seconds(1));
  sweep_timer_.async_wait([this](std::error_code ec) {
    if (!ec && !stopping_) sweep();
  });
}

// Traffic of an identity (node, incarnation) that was declared dead is dropped, and the node is
// told, so that it fences if it is still running (docs/architecture.md §5).
bool Daemon::stale(const Hello& peer) {
  if (!table_.is_stale(peer.node_id, peer.incarnation)) return false;
  membership_.on_stale_traffic(peer.node_id, peer.incarnation);
  return true;
}

// TESTING ONLY: the fault harness changes the frame faults mid-run; refused unless test.hooks.
void Daemon::on_frame_faults(const ConnectionPtr& conn, const FrameFaultsRequest& req) {
  const FrameFaults::Settings s{req.drop, req.duplicate, req.delay_ms};
  const bool valid = req.drop >= 0 && req.drop <= 1 && req.duplicate >= 0 && req.duplicate <= 1 &&
                     req.delay_ms >= 0 && req.delay_ms <= 60'000;
  if (!config_.test.hooks || !valid) {
    const std::string why = !valid ? "refused: frame faults out of range (" + s.text() + ")"
                                   : "refused: test.hooks is off (" + config_.where("test.hooks") +
                                         "); frame faults are for test clusters only";
    spdlog::warn("client {}: {}", conn->describe(), why);
    return conn->send(FrameFaultsReply{false, why});
  }
  transport_.set_frame_faults(s);
  membership_.set_heartbeat_drop(s.drop);
  spdlog::warn("TEST HOOK: frame faults now {} (set by client {})", s.text(), conn->describe());
  conn->send(FrameFaultsReply{true, s.text()});
}

void Daemon::on_create(const CreateTasks& req) {
  locations_.set_job(req.job, req.placement);
  host_.create(req, [this, job = req.job, root = req.root](Status st) {
    send_to_node(root, TasksCreated{job, config_.node_id, st.is_ok(), st.message()});
  });
}

// The root's reduction for the tasks it believes live here; tasks that moved are routed on.
void Daemon::on_reduction(const ReductionResult& r, std::uint32_t from) {
  if (ended_jobs_.contains(r.job)) return;
  if (host_.knows_job(r.job) && host_.generation(r.job) != r.generation) return;
  auto values = std::make_shared<const std::vector<std::uint8_t>>(
      encode_portable(ReducedPayload{r.values, r.changes}));
  for (std::uint32_t index : r.tasks) {
    router_.route(
        reduction_message(TaskId{r.job, index}, r.step, values, r.generation, r.checkpoint), from);
  }
}

void Daemon::on_location_update(const LocationUpdate& u) {
  router_.on_location_update(u);
  if (locations_.home(u.task.job) == config_.node_id) coordinator_.on_task_moved(u.task, u.node, u.epoch);
}

void Daemon::on_job_end(std::uint64_t job) {
  reset_job(job);
  host_.end(job);
  recovery_.drop_job(job);
  coordinator_.forget_record(job);
  orphans_.erase(job);
  ended_jobs_.add(job);
}

void Daemon::reset_job(std::uint64_t job) {
  for (TaskId t : host_.tasks()) {
    if (t.job == job) meter_.forget(t);
  }
  partners_.forget_job(job);
  router_.drop_job(job);
  migration_.drop_job(job);
}

void Daemon::on_migrate_request(const ConnectionPtr& conn, const MigrateRequest& req) {
  std::uint64_t id = (std::uint64_t{config_.node_id} << 32) | ++next_request_;
  migrate_requests_[id] = conn;
  send_to_node(locations_.home(req.task.job), MigrateCommand{id, config_.node_id, req.task, req.dest});
}

void Daemon::on_migration_report(const MigrationReport& report) {
  auto it = migrate_requests_.find(report.request);
  if (it == migrate_requests_.end()) return;
  if (it->second && !it->second->closed()) it->second->send(report);
  migrate_requests_.erase(it);
}

void Daemon::on_tasks_request(const ConnectionPtr& conn) {
  std::set<std::uint32_t> nodes;
  for (const Member& m : membership_.members()) {
    if (m.info.state != MemberState::kDead) nodes.insert(m.info.node_id);
  }
  std::uint64_t id = task_lists_.begin(conn, nodes);
  for (std::uint32_t node : nodes) send_to_node(node, TaskListRequest{id});
}

TaskListReply Daemon::task_list(std::uint64_t request) const {
  TaskListReply reply;
  reply.request = request;
  reply.node = config_.node_id;
  for (TaskId t : host_.tasks()) {
    reply.tasks.push_back(TaskInfo{t, config_.node_id, host_.epoch(t), host_.task_load(t), 0});
  }
  for (const auto& [task, pointer] : pointers_.all()) {
    reply.tasks.push_back(TaskInfo{task, 0, 0, 0, pointer.forwarded});
  }
  return reply;
}

void Daemon::on_effects(HandlerEffects&& effects) {
  // A task released by a migration may still deliver the effects of a handler that ran before.
  const std::uint32_t root = effects.job->root;
  if (host_.hosts(effects.task)) {
    meter_.on_effects(effects, now_s());
    active_jobs_[effects.task.job] = {root, effects.job->generation};  // for JobActivity
  } else {
    meter_.forget(effects.task);
  }
  for (TaskId partner : effects.partners) partners_.record(effects.task, partner);
  if (effects.checkpoint) {
    recovery_.on_saved(effects.task, effects.job->generation, *effects.checkpoint);
  }
  for (auto& c : effects.contributions) send_to_node(root, std::move(c));
  if (effects.finished) send_to_node(root, std::move(*effects.finished));
  if (effects.error) {
    send_to_node(root, JobFailed{effects.task.job, "task " + std::to_string(effects.task.index) +
                                                       " failed: " + *effects.error});
  }
}

void Daemon::on_sent(TaskMessage&& msg) {
  partners_.record(msg.from, msg.to);
  router_.route(std::move(msg), config_.node_id);
}

// The job's tasks here went with their worker: its root rolls the job back (or, the second time
// a worker of the job is lost, fails it with this reason).
void Daemon::on_worker_lost(const JobInfo& job, const std::vector<std::uint32_t>& tasks,
                            const std::string& why) {
  reset_job(job.id);
  constexpr std::size_t kMaxReason = 4096;
  send_to_node(job.root, WorkerLost{job.id, config_.node_id, job.generation, tasks,
                                    why.substr(0, kMaxReason)});
}

// A job of an installed application: this node runs its own, found on its apps path. A job of
// the user's own executable: the one for this node's architecture, cached or fetched (from the
// job's root first, which has them all).
void Daemon::find_executable(const JobInfo& job, TaskHost::ExecutableReady ready) {
  auto binaries = job_binaries(job.spec);
  if (!binaries) return ready(binaries.status());
  if (binaries->empty()) return ready(find_app(job.spec.app, apps_path_));
  auto mine = binaries->find(config_.arch());
  if (mine == binaries->end()) {
    std::string archs;
    for (const auto& [arch, sha] : *binaries) archs += (archs.empty() ? "" : ", ") + arch;
    return ready(Status::error("the job has no executable for this node's architecture, " +
                               config_.arch() + " (it has " + archs + ")"));
  }
  std::vector<std::uint32_t> sources;
  if (job.root != 0) sources.push_back(job.root);
  for (const Member& m : membership_.members()) {
    if (m.info.state == MemberState::kAlive && m.info.node_id != job.root) {
      sources.push_back(m.info.node_id);
    }
  }
  binaries_.need(mine->second, std::move(sources), std::move(ready));
}

// The executables the jobs here run, and all those of the jobs rooted here or whose deputy this
// is (the nodes fetch them from here; this node combines the results), spared when the cache is
// trimmed.
std::set<std::string> Daemon::executables_in_use() const {
  std::set<std::string> in_use;
  for (const JobSpec& spec : coordinator_.specs()) {
    if (auto binaries = job_binaries(spec)) {
      for (const auto& [arch, sha] : *binaries) in_use.insert(sha);
    }
  }
  for (std::uint64_t job : host_.jobs()) {
    auto info = host_.job_info(job);
    if (!info) continue;
    if (auto binaries = job_binaries(info->spec)) {
      if (auto it = binaries->find(config_.arch()); it != binaries->end()) in_use.insert(it->second);
    }
  }
  return in_use;
}

// The root's questions to the job's application, asked of this node's executable of it.
void Daemon::ask_app(const AppQuery& query, std::function<void(Result<AppAnswer>)> answer) {
  // Each question is a process: a bound on how many clients can make this node start at once.
  constexpr int kQueriesAtOnce = 8;
  if (queries_running_ >= kQueriesAtOnce) {
    return answer(Status::error("node " + std::to_string(config_.node_id) + " is answering " +
                                std::to_string(queries_running_) +
                                " questions to applications already; try again in a moment"));
  }
  ++queries_running_;
  answer = [this, answer = std::move(answer)](Result<AppAnswer> a) {
    --queries_running_;
    answer(std::move(a));
  };
  JobInfo job;
  job.spec = query.spec;
  job.root = config_.node_id;
  find_executable(job, [this, query, answer = std::move(answer)](Result<std::string> path) mutable {
    if (!path) return answer(path.status());
    drift::ask_app(io_, *path, config_.worker.launcher, containment_, query,
                   config_.worker.query_timeout, std::move(answer),
                   "drift-" + std::to_string(config_.node_id) + "-" + std::to_string(::getpid()) +
                       "-q" + std::to_string(++queries_asked_));
  });
}

LoadIndex Daemon::load_index() {
  LoadIndex load;
  meter_.sense(now_s());
  meter_.track(host_.tasks());  // tasks that moved or ended leave the sums; unreported ones
                                // count with the mean of the others
  const balance::NodeLoad expected = balancer_.expected_load();
  load.task_load = expected.load;
  load.capacity = expected.capacity;
  load.utilization = balance::utilization(expected);
  load.load_average = meter_.external_load();  // per core, programs that are not drift's
  load.free_memory_bytes = free_memory_.get();
  load.owner = owner_.state();
  load.task_count = host_.task_count();
  return load;
}

double Daemon::now_s() const {
  return emulator_.seconds_since_start(std::chrono::steady_clock::now());
}

NodeCounters Daemon::own_counters() const {
  NodeCounters c = counters_;
  c.refused = transport_.frames_refused() + forged_senders_;
  return c;
}

StatusReply Daemon::status() {
  StatusReply reply;
  reply.responder = config_.node_id;
  for (const Member& m : membership_.members()) {
    NodeStatus s{m.info, m.load, NodeCounters{}};
    if (auto it = peer_counters_.find(m.info.node_id); it != peer_counters_.end()) {
      s.counters = it->second;
    }
    if (m.info.node_id == config_.node_id) {
      s.load = load_index();
      s.counters = own_counters();
    }
    reply.nodes.push_back(std::move(s));
  }
  return reply;
}

// Live members with their advertised capacity, and whether their owner lets them take work
// (docs/architecture.md §9). A member whose first heartbeat has not arrived yet (it just joined) counts with
// our own capacity rather than being left out.
std::vector<PlacementCandidate> Daemon::candidates() const {
  std::vector<PlacementCandidate> out;
  for (const Member& m : table_.members()) {
    if (m.info.state != MemberState::kAlive) continue;
    bool self = m.info.node_id == config_.node_id;
    OwnerState owner = self ? owner_.state() : m.load.owner;
    double capacity = self || !m.heard ? meter_.capacity() : m.load.capacity;
    if (!std::isfinite(capacity) || capacity <= 0) continue;  // a peer's value, unchecked
    out.push_back({m.info.node_id, m.info.name, capacity, owner == OwnerState::kAvailable,
                   self ? config_.arch() : m.info.arch,
                   self ? free_memory_.get() : m.heard ? m.load.free_memory_bytes : 0});
  }
  return out;
}

}  // namespace drift
