// The daemon's set-up from its configuration (daemon_params.h).
#include "node/daemon_params.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <thread>

#include "node/machine/emulated_compute.h"
#include "node/net/tls_context.h"
#include "node/machine/cpu_quota.h"
#include "node/machine/external_load.h"
#include "node/machine/machine_stats.h"

namespace drift::daemon_setup {

std::uint64_t new_incarnation() {
  // Grows at every start (docs/architecture.md §1): microseconds of wall-clock time.
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
                    MemberState::kAlive, c.arch()};
}

std::shared_ptr<TlsContext> member_tls(const NodeConfig& c) {
  if (c.test.plaintext) return nullptr;
  auto tls = TlsContext::member(c.secret, c.revoked_tokens, {c.tls_ca, c.tls_cert, c.tls_key});
  if (!tls) throw std::runtime_error("TLS: " + tls.error());
  return *tls;
}

Transport::Params transport_params(const NodeConfig& c, std::shared_ptr<TlsContext> tls,
                                   IdleLane* bulk_lane) {
  Transport::Params p;
  p.handshake.bulk_lane = bulk_lane;
  p.handshake.cluster = c.cluster_name;
  p.handshake.secret = c.secret;
  p.handshake.max_frame_bytes = c.max_frame_bytes;
  p.handshake.tls = std::move(tls);
  p.reconnect_min = c.reconnect_min;
  p.reconnect_max = c.reconnect_max;
  p.admission = {c.max_handshakes, c.max_handshakes_per_address,
                 static_cast<double>(c.connections_per_second),
                 2.0 * c.connections_per_second};
  return p;
}

std::uint32_t core_count() { return std::max(1u, std::thread::hardware_concurrency()); }

// Tasks computing side by side: each worker is one emulated CPU; a real machine has no more
// than its cores, and no more than its cgroup's CPU quota (0.2 core: a fifth of one).
double parallelism(const NodeConfig& c, const Emulator& emulator) {
  const std::uint32_t workers = worker_count(c.workers);
  if (emulator.enabled()) return workers;
  const double cores = std::min(workers, core_count());
  static const std::optional<double> quota = cpu_quota_cores();
  return quota ? std::clamp(*quota, 0.01, cores) : cores;
}

// Runnable processes per core that are not drift's: the emulated schedule, or the machine's load
// average minus our own runnable threads and our workers' (10 emulated daemons on one machine must
// not see each other's CPU as owner load). For the capacity under a CPU quota: what the node got
// of its quota while its workers computed (cpu_share.h), once measured; the load average before.
double external_load_now(const Emulator& emulator, double now_s, const std::vector<int>& workers,
                         CpuShareSampler* share) {
  if (emulator.enabled()) return emulator.external_load(now_s);
  static const std::optional<double> quota = cpu_quota_cores();
  if (quota && share) {
    if (auto measured = share->sample(workers, now_s, *quota)) return *measured;
  }
  const double per_core = external_load_per_core(
      read_load_average(), count_own_runnable_threads(workers), core_count());
  return quota ? quota_external_load(per_core, core_count(), *quota) : per_core;
}

// The unloaded capacity used in static mode and until the first measurement: node.capacity,
// else a benchmark of one core, times the parallelism (the cores, the CPU quota). Emulated:
// through the emulated compute path, which measures the emulated speed per wall second,
// normalised for the emulated external load it ran under. Real: measure_capacity() counts
// millions of stencil cells (heat2d's work unit) per CPU second, which neither a quota's
// throttling nor other programs distort (timed by the wall clock, a node at a thirtieth of a
// core measured itself 300 times too slow and got no task at the next placement).
double static_capacity(const NodeConfig& c, const Emulator& emulator) {
  if (c.capacity > 0) return c.capacity;
  if (!emulator.enabled()) return measure_capacity() * 1e6 * parallelism(c, emulator);
  return emulated_benchmark(emulator) * (1 + external_load_now(emulator, 0)) *
         parallelism(c, emulator);
}

LoadMeter::Params meter_params(const NodeConfig& c, const Emulator& emulator,
                               double static_estimate) {
  LoadMeter::Params p;
  p.homogeneous = c.balance.strategy == BalanceStrategy::kHomogeneous;
  p.capacity = c.balance.capacity;
  p.sensing = c.balance.sensing;
  p.ewma = c.balance.capacity_ewma;
  p.static_capacity = static_estimate;
  p.parallelism = parallelism(c, emulator);
  p.cpu_time = !emulator.enabled();
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

// Indirect probes start one heartbeat into a suspicion and repeat three times per suspect
// timeout, so a positive answer can arrive before the deadline; a helper answers from its own
// heartbeats if it heard the suspect within two intervals; a round later than a heartbeat plus
// the acceptable pause means our own loop stalled.
MembershipService::Params membership_params(const NodeConfig& c) {
  MembershipService::Params p;
  p.heartbeat_interval = c.heartbeat_interval;
  p.group_size = c.group_size;
  p.gossip_entries = 8;
  p.probes.helpers = c.probe_helpers;
  p.probes.first_after = c.heartbeat_interval;
  p.probes.every = std::max(c.heartbeat_interval, c.suspect_timeout / 3);
  p.heard_recently = 2 * c.heartbeat_interval;
  p.own_pause = c.heartbeat_interval + c.acceptable_pause;
  p.hang_timeout = c.hang_timeout;
  p.reconnect_max = c.reconnect_max;
  return p;
}

// Lifeguard (docs/architecture.md §5.2): from the configured timeouts, with MemberTable's
// confirmations and stretches (a slow peer's own health stretches our patience with it at most
// 8 times, ours at most 4 times).
MemberTable::SuspectTimeout suspect_timeout(const NodeConfig& c) {
  const auto max = c.suspect_timeout_max.count() > 0 ? c.suspect_timeout_max : 3 * c.suspect_timeout;
  MemberTable::SuspectTimeout t;
  t.min = c.suspect_timeout;
  t.max = std::max(max, c.suspect_timeout);
  t.first_heartbeat = c.first_heartbeat;
  return t;
}

TaskHost::Params task_host_params(const NodeConfig& c, const Emulator& emulator,
                                  const Containment& containment) {
  TaskHost::Params p;
  // A checkpoint a worker reports cannot be larger than the memory it may use.
  p.max_state = containment.memory_limit > 0 ? containment.memory_limit : std::uint64_t{1} << 36;
  p.ready_within = c.worker.query_timeout;
  p.threads = worker_count(c.workers);
  p.inline_us = c.inline_handler_us;
  p.max_frame = c.max_frame_bytes;
  p.piece_bytes = c.chunk_bytes;
  p.launcher = c.worker.launcher;
  p.stop_grace = c.worker.stop_grace;
  p.emulator = &emulator;
  p.node = c.node_id;
  return p;
}

BalancerService::Params balancer_params(const NodeConfig& c) {
  BalancerService::Params p;
  p.planner.strategy = c.balance.strategy;
  p.planner.eff_min = c.balance.eff_min;
  p.planner.hysteresis = c.balance.hysteresis;
  p.planner.locality_weight = c.balance.locality_weight;
  p.planner.max_moves = c.balance.max_moves;
  p.period = c.balance.period;
  p.group_size = c.group_size;
  return p;
}


}  // namespace drift::daemon_setup
