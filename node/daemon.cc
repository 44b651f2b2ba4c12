// The daemon (daemon.h): its parts made from the config, started and stopped; frames to other
// nodes; the sweep each second; its load index, counters and status (docs/architecture.md §3.1).
#include "node/daemon.h"

#include <drift/archives.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "node/daemon_params.h"
#include "node/machine/emulated_compute.h"
#include "node/machine/external_load.h"
#include "node/machine/machine_stats.h"
#include "node/machine/process_cpu.h"
#include "node/net/loop_watch.h"
#include "node/service/systemd_notify.h"
#include "node/workers/app_locator.h"
#include "node/workers/app_query_client.h"
#include "node/workers/job_binaries.h"
#include "node/workers/machine_arch.h"
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
                                     config_.chunk_bytes, host_.max_state(),
                                     [&io = io_](std::function<void()> fn) {
                                       asio::post(io, std::move(fn));
                                     },
                                     [&io = io_](std::chrono::milliseconds after,
                                                 std::function<void()> fn) {
                                       auto timer = std::make_shared<asio::steady_timer>(io, after);
                                       timer->async_wait([timer, fn = std::move(fn)](
                                                             const asio::error_code& ec) {
                                         if (!ec) fn();
                                       });
                                     },
                                     config_.checkpoint.disk_patience}),
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
  coordinator_.set_max_frame_bytes(config_.max_frame_bytes);
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
    signals_.cancel();
    reload_.cancel();
    ready_timer_.cancel();
    // What was just sent (the word that this node leaves, a last answer) reaches the peers: each
    // connection ends after its queue, and the peers end theirs (kLingerOnStop at most).
    transport_.shutdown(kLingerOnStop, [this] { io_.stop(); });
    host_.end_all();
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

LoadIndex Daemon::load_index() {
  LoadIndex load;
  meter_.sense(now_s());
  meter_.track(host_.tasks());  // tasks that moved or ended leave the sums; unreported ones
                                // count with the mean of the others
  // Emulation stretches the computes only: there is no overhead to find.
  if (config_.balance.step_floor && !emulator_.enabled()) {
    step_overhead_.sample(now_s(), host_.tasks(), [this] {
      return StepOverhead::Reading{node_cpu_seconds(host_.worker_pids()),
                                   meter_.compute_cpu_seconds(), meter_.steps_done(),
                                   migration_.moving_out() + migration_.moving_in() > 0,
                                   host_.state_bytes_from_workers() + recovery_.bytes_kept(),
                                   grain_changes_here_};
    });
    meter_.set_step_overhead(step_overhead_.cpu_seconds());
  }
  const balance::NodeLoad expected = balancer_.expected_load();
  load.task_load = expected.load;
  load.capacity = expected.capacity;
  load.utilization = balance::utilization(expected);
  load.load_average = meter_.external_load();  // per core, programs that are not drift's
  load.free_memory_bytes = free_memory_.get();
  load.owner = owner_.state();
  load.task_count = host_.task_count();
  load.step_floor = expected.floor;
  load.capacity_measured = meter_.capacity_measured();
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
