#include "node/daemon.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "node/machine_stats.h"
#include "protocol/codec.h"

namespace drift {

namespace {

std::uint64_t new_incarnation() {
  // Grows at every start (DESIGN.md §1): microseconds of wall-clock time.
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::microseconds>(
                                        std::chrono::system_clock::now().time_since_epoch())
                                        .count());
}

std::uint32_t worker_count(std::uint32_t configured) {
  if (configured > 0) return configured;
  return std::max(1u, std::thread::hardware_concurrency());
}

Hello self_hello(const NodeConfig& c, std::uint64_t incarnation) {
  Hello h;
  h.cluster = c.cluster_name;
  h.protocol_version = kProtocolVersion;
  h.role = PeerRole::kNode;
  h.node_id = c.node_id;
  h.incarnation = incarnation;
  h.name = c.name;
  h.listen_address = Endpoint{c.address, c.port}.to_string();
  return h;
}

MemberInfo self_member(const NodeConfig& c, std::uint64_t incarnation) {
  return MemberInfo{c.node_id, incarnation, c.name, Endpoint{c.address, c.port}.to_string(),
                    MemberState::kAlive};
}

Transport::Params transport_params(const NodeConfig& c) {
  Transport::Params p;
  p.handshake.cluster = c.cluster_name;
  p.handshake.secret = c.secret;
  p.handshake.max_frame_bytes = c.max_frame_bytes;
  p.reconnect_min = c.reconnect_min;
  p.reconnect_max = c.reconnect_max;
  return p;
}

PhiAccrualDetector::Params detector_params(const NodeConfig& c) {
  PhiAccrualDetector::Params p;
  p.threshold = c.phi_threshold;
  p.min_std_dev = c.min_std_dev;
  p.acceptable_pause = c.acceptable_pause;
  p.first_interval = c.heartbeat_interval;
  return p;
}

}  // namespace

Daemon::Daemon(NodeConfig config, const AppRegistry& apps)
    : config_(std::move(config)),
      apps_(apps),
      incarnation_(new_incarnation()),
      capacity_(config_.capacity > 0 ? config_.capacity : measure_capacity()),
      pool_(worker_count(config_.workers)),
      signals_(io_, SIGINT, SIGTERM),
      transport_(io_, transport_params(config_), self_hello(config_, incarnation_)),
      table_(self_member(config_, incarnation_), detector_params(config_),
             config_.suspect_timeout, config_.group_size),
      membership_(io_, transport_, table_,
                  MembershipService::Params{config_.heartbeat_interval, config_.group_size, 8},
                  [this] { return load_index(); }),
      host_(io_, pool_, apps_, [this](HandlerEffects&& e) { on_effects(std::move(e)); }),
      coordinator_(*this, apps_, [this] { return candidates(); }) {}

Daemon::~Daemon() {
  pool_.stop();
  pool_.join();
}

Status Daemon::start() {
  Endpoint at{config_.address, config_.port};
  if (auto st = transport_.listen(at); !st) {
    return Status::error("node.port = " + std::to_string(config_.port) + " (" +
                         config_.where("node.port") + "): " + st.message());
  }
  transport_.on_message([this](const ConnectionPtr& c, WireMessage&& m) {
    on_message(c, std::move(m));
  });
  transport_.on_peer([this](const ConnectionPtr& c) { membership_.on_peer_hello(c->peer()); });
  transport_.on_connection_closed([this](const ConnectionPtr& c, const std::string&) {
    if (c->peer().role == PeerRole::kClient) coordinator_.on_client_closed(c);
  });
  membership_.subscribe([this](const MemberTransition& t) { on_transition(t); });
  signals_.async_wait([this](std::error_code ec, int sig) {
    if (!ec) {
      spdlog::info("signal {}: shutting down", sig);
      stop();
    }
  });
  membership_.start(config_.seeds);
  spdlog::info("driftd node {} '{}' listening on {}, cluster '{}', incarnation {}, capacity "
               "{:.3g}, {} workers",
               config_.node_id, config_.name, at.to_string(), config_.cluster_name, incarnation_,
               capacity_, worker_count(config_.workers));
  return Status::ok();
}

void Daemon::run() { io_.run(); }

void Daemon::stop() {
  asio::post(io_, [this] {
    if (stopping_) return;
    stopping_ = true;
    membership_.stop();
    transport_.shutdown();
    signals_.cancel();
    for (std::uint64_t job : host_.jobs()) host_.end(job);
    io_.stop();
  });
}

void Daemon::send_to_node(std::uint32_t node_id, WireMessage msg) {
  if (node_id == config_.node_id) {
    asio::post(io_, [this, msg = std::move(msg)]() mutable {
      on_node_message(config_.node_id, std::move(msg));
    });
    return;
  }
  if (!membership_.is_alive(node_id)) {
    spdlog::debug("not sending {} to node {}: not a live member", to_string(type_of(msg)),
                  node_id);
    return;
  }
  auto address = membership_.address_of(node_id);
  if (!address) {
    spdlog::warn("no address for node {}; dropped a {}", node_id, to_string(type_of(msg)));
    return;
  }
  transport_.send(node_id, *address, msg);
}

// A node that restarted gets a new incarnation; traffic of the old one is dropped.
bool Daemon::stale(const Hello& peer) const {
  const Member* m = table_.find(peer.node_id);
  if (!m) return false;
  if (m->info.incarnation > peer.incarnation) return true;
  return m->info.state == MemberState::kDead && m->info.incarnation == peer.incarnation;
}

void Daemon::on_message(const ConnectionPtr& conn, WireMessage&& msg) {
  if (conn->peer().role == PeerRole::kClient) return on_client_message(conn, std::move(msg));
  if (stale(conn->peer())) {
    spdlog::debug("dropped {} from a stale incarnation of node {}", to_string(type_of(msg)),
                  conn->peer().node_id);
    return;
  }
  on_node_message(conn->peer().node_id, std::move(msg));
}

void Daemon::on_node_message(std::uint32_t from, WireMessage&& msg) {
  std::visit(
      [&](auto&& m) {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, Heartbeat>) {
          membership_.on_heartbeat(m);
        } else if constexpr (std::is_same_v<T, TaskMessage>) {
          route(std::move(m));
        } else if constexpr (std::is_same_v<T, CreateTasks>) {
          on_create(m);
        } else if constexpr (std::is_same_v<T, StartJob>) {
          host_.start(m.job);
        } else if constexpr (std::is_same_v<T, ReductionResult>) {
          host_.reduced(m);
        } else if constexpr (std::is_same_v<T, JobEnd>) {
          host_.end(m.job);
          locations_.drop_job(m.job);
        } else if constexpr (std::is_same_v<T, TasksCreated>) {
          coordinator_.on_tasks_created(m);
        } else if constexpr (std::is_same_v<T, ReductionContribution>) {
          coordinator_.on_contribution(m);
        } else if constexpr (std::is_same_v<T, TaskFinished>) {
          coordinator_.on_task_finished(m);
        } else if constexpr (std::is_same_v<T, JobFailed>) {
          coordinator_.on_task_failed(from, m);
        } else {
          spdlog::warn("node {} sent a {}, which nodes do not send; ignored", from,
                       to_string(T::kType));
        }
      },
      std::move(msg));
}

void Daemon::on_client_message(const ConnectionPtr& conn, WireMessage&& msg) {
  if (std::holds_alternative<StatusRequest>(msg)) {
    conn->send(status());
  } else if (auto* run = std::get_if<RunRequest>(&msg)) {
    coordinator_.submit(std::move(*run), conn);
  } else {
    conn->close(std::string("refused: a client may not send ") + to_string(type_of(msg)));
  }
}

void Daemon::on_create(const CreateTasks& req) {
  Status st = host_.create(req);
  if (st) locations_.set_job(req.job, req.placement);
  send_to_node(req.root, TasksCreated{req.job, config_.node_id, st.is_ok(), st.message()});
}

void Daemon::route(TaskMessage&& msg) {
  TaskId to = msg.to;
  if (host_.deliver(std::move(msg))) return;
  auto node = locations_.node_of(to);
  if (!node || *node == config_.node_id) {
    spdlog::warn("dropped a message for task {:x}:{}, which does not live here", to.job,
                 to.index);
    return;
  }
  send_to_node(*node, std::move(msg));
}

void Daemon::on_effects(HandlerEffects&& effects) {
  const std::uint32_t root = effects.job->root;
  for (auto& m : effects.sends) route(std::move(m));
  for (auto& c : effects.contributions) send_to_node(root, std::move(c));
  if (effects.finished) send_to_node(root, std::move(*effects.finished));
  if (effects.error) {
    send_to_node(root, JobFailed{effects.task.job, "task " + std::to_string(effects.task.index) +
                                                       " failed: " + *effects.error});
  }
}

void Daemon::on_transition(const MemberTransition& t) {
  if (t.to != MemberState::kDead || t.node_id == config_.node_id) return;
  const Member* m = table_.find(t.node_id);
  std::string name = m ? m->info.name : "?";
  coordinator_.on_node_dead(t.node_id, name);
  for (std::uint64_t job : host_.jobs()) {
    auto info = host_.job_info(job);
    if (info && info->root == t.node_id) {
      spdlog::warn("job {:x} abandoned: its root, node {} ({}), was declared dead", job,
                   t.node_id, name);
      host_.end(job);
      locations_.drop_job(job);
    }
  }
}

LoadIndex Daemon::load_index() {
  LoadIndex load;
  load.task_load = host_.total_load();
  load.capacity = capacity_;
  load.utilization = capacity_ > 0 ? load.task_load / capacity_ : 0;
  load.load_average = read_load_average();
  load.free_memory_bytes = read_available_memory();
  load.owner = OwnerState::kAvailable;
  load.task_count = host_.task_count();
  return load;
}

StatusReply Daemon::status() {
  StatusReply reply;
  reply.responder = config_.node_id;
  for (const Member& m : membership_.members()) {
    NodeStatus s{m.info, m.load};
    if (m.info.node_id == config_.node_id) s.load = load_index();
    reply.nodes.push_back(std::move(s));
  }
  return reply;
}

std::vector<PlacementCandidate> Daemon::candidates() const {
  std::vector<PlacementCandidate> out;
  for (const Member& m : table_.members()) {
    if (m.info.state != MemberState::kAlive) continue;
    double capacity = m.info.node_id == config_.node_id ? capacity_ : m.load.capacity;
    if (m.info.node_id != config_.node_id && !m.heard) continue;
    if (!std::isfinite(capacity) || capacity <= 0) continue;  // a peer's value, unchecked
    out.push_back({m.info.node_id, m.info.name, capacity});
  }
  return out;
}

}  // namespace drift
