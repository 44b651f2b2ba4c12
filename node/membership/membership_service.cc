#include "node/membership/membership_service.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "node/net/loop_watch.h"
#include "node/net/thread_time.h"
#include "protocol/codec.h"

namespace drift {

namespace {
using Clock = std::chrono::steady_clock;
}

MembershipService::MembershipService(asio::io_context& io, Transport& transport,
                                     MemberTable& table, Params params,
                                     const HandshakeParams& handshake, LoadSource load)
    : io_(io),
      transport_(transport),
      table_(table),
      params_(params),
      load_(std::move(load)),
      timer_(io),
      probes_(table.self().node_id, params.probes),
      beacon_(HeartbeatBeacon::Params{params.heartbeat_interval, params.hang_timeout,
                                      params.reconnect_max, handshake}),
      health_(LocalHealth::Params{params.heartbeat_interval, 8, 10}) {}

void MembershipService::start(const std::vector<Endpoint>& seeds) {
  for (const auto& seed : seeds) transport_.connect_seed(seed);
  beacon_.start();
  arm();
}

void MembershipService::stop() {
  stopped_ = true;
  timer_.cancel();
  beacon_.stop();
}

void MembershipService::arm() {
  timer_.expires_after(params_.heartbeat_interval);
  timer_.async_wait([this](std::error_code ec) {
    if (ec || stopped_) return;
    round();
    arm();
  });
}

void MembershipService::round() {
  using std::chrono::milliseconds;
  auto now = Clock::now();
  milliseconds late{0};
  if (last_round_) {
    const auto gap = std::chrono::duration_cast<milliseconds>(now - *last_round_);
    late = std::max(milliseconds(0), gap - params_.heartbeat_interval);
    if (counters_out_) {
      counters_out_->longest_stall_ms =
          std::max<std::uint64_t>(counters_out_->longest_stall_ms, gap.count());
    }
    const SlowestHold held = take_slowest_hold();
    const std::string spent = stall_account_.sample();
    // "the longest handler: X for 8 ms; the thread ran 24 ms, waited 99 ms for a CPU, ..."
    const auto where = [&] {
      return fmt::format("the longest handler: {}; the thread {}",
                         held.what ? describe(held) : "none ended",
                         spent.empty() ? "cannot say where its time went" : spent);
    };
    if (now - *last_round_ > params_.own_pause) {
      // The silence we would measure now is ours: judge the others from now on instead.
      spdlog::info(
          "our event loop stalled for {} ms (health {}; {}): failure detection restarts "
          "from now; the heartbeat thread went on beating",
          gap.count(), health_.score(), where());
      table_.resume_after_pause(now);
    } else if (held.took > params_.heartbeat_interval) {
      spdlog::info("{} held our event loop for {} ms, longer than a heartbeat interval",
                   held.what, held.took.count() / 1000);
    } else if (late > params_.heartbeat_interval) {
      spdlog::info("our membership round came {} ms late ({})", late.count(), where());
    }
  }
  // Lifeguard: our rounds and the heartbeat thread's timer on time, or not.
  health_.round(std::max(late, beacon_.take_lateness()));
  table_.set_own_health(health_.score());
  last_round_ = now;
  const LoadIndex load = load_();  // reads /proc and sums the meter: once per round
  table_.set_self_load(load);
  for (const auto& r : beacon_.take_refused()) table_.refused(r.node_id, r.dialed, now);
  publish(table_.tick(now));
  send_probes(now);
  send_heartbeats();
  redial_dead(now);
}

void MembershipService::redial_dead(Clock::time_point now) {
  if (now - last_redial_ < std::chrono::seconds(1)) return;
  last_redial_ = now;
  const std::uint32_t self = table_.self().node_id;
  std::vector<std::uint32_t> dead;
  for (const Member& m : table_.members()) {
    if (m.info.node_id != self && m.info.state == MemberState::kDead) dead.push_back(m.info.node_id);
  }
  if (dead.empty()) return;
  auto next = std::upper_bound(dead.begin(), dead.end(), last_redialled_);
  last_redialled_ = next == dead.end() ? dead.front() : *next;
  const Member* m = table_.find(last_redialled_);
  if (m == nullptr) return;
  if (auto address = parse_endpoint(m->info.address)) transport_.dial_once(*address);
}

// Hands the heartbeat thread what to send until the next round (it numbers each beat).
void MembershipService::send_heartbeats() {
  Heartbeat hb;
  hb.from = table_.self().node_id;
  hb.incarnation = table_.self().incarnation;
  hb.load = table_.find(hb.from)->load;
  // What changes every beat goes every beat; what people read, or only repairs a view that the
  // changes keep up to date, goes on one round in kFullEvery (docs/architecture.md §5).
  // The rotating slice goes on every other round: 40 members are all repeated within 8 s.
  const std::uint64_t round = round_++;
  const bool full = round % kFullEvery == 0;
  if (counters_ && full) {
    hb.counters = counters_();
    hb.has_counters = true;
  }
  hb.gossip = table_.gossip(params_.gossip_entries, round % 2 == 0 ? params_.gossip_rotating : 0,
                            full);
  hb.health = static_cast<std::uint8_t>(health_.score());
  hb.suspects = table_.own_suspects(kMaxSuspectsSent);
  std::vector<HeartbeatBeacon::Target> group;
  for (std::uint32_t id : table_.local_group(params_.group_size)) {
    if (auto address = address_of(id)) group.push_back({id, *address});
  }
  beacon_.update(std::move(hb), std::move(group), transport_.hello());
  if (counters_out_) counters_out_->heartbeat_bytes = beacon_.bytes_sent() + tombstone_bytes_;
}

// A heartbeat sent on this thread to chosen members (not by the beacon): who we are, numbered.
Heartbeat MembershipService::direct_heartbeat() {
  Heartbeat hb;
  hb.from = table_.self().node_id;
  hb.incarnation = table_.self().incarnation;
  hb.sequence = ++sequence_;
  hb.load = table_.find(hb.from)->load;
  return hb;
}

void MembershipService::announce_leave() {
  Heartbeat hb = direct_heartbeat();
  MemberInfo gone = table_.self();
  gone.state = MemberState::kDead;
  hb.gossip = {gone};
  const std::vector<std::uint32_t> peers = table_.alive_peers();
  spdlog::info("telling {} member(s) that this node leaves", peers.size());
  for (std::uint32_t id : peers) send_to(id, hb);
}

// A member that restarted (a new incarnation) starts afresh: the time it was down is no delay.
void MembershipService::note_arrival(std::uint32_t from, std::uint64_t incarnation,
                                     Clock::time_point now) {
  auto [it, first] = last_heard_.try_emplace(from, incarnation, now);
  if (!counters_out_) return;
  ++counters_out_->heartbeats_received;
  if (first || it->second.first != incarnation) {
    it->second = {incarnation, now};
    return;
  }
  const auto gap = std::chrono::duration_cast<std::chrono::milliseconds>(now - it->second.second);
  it->second.second = now;
  counters_out_->longest_gap_ms = std::max<std::uint64_t>(counters_out_->longest_gap_ms, gap.count());
  if (gap > 2 * params_.heartbeat_interval) ++counters_out_->late_heartbeats;
}

void MembershipService::send_probes(Clock::time_point now) {
  std::vector<IndirectProbes::Suspect> suspects;
  for (const Member* m : table_.monitored_suspects()) {
    suspects.push_back({m->info.node_id, m->info.incarnation, m->suspect_since});
  }
  const std::uint32_t self = table_.self().node_id;
  for (const auto& round : probes_.due(suspects, table_.alive_peers(), now)) {
    spdlog::debug("node {} suspect: asking {} member(s) to probe it (round {})", round.target,
                  round.helpers.size(), round.probe);
    for (std::uint32_t helper : round.helpers) {
      send_to(helper, ProbeRequest{round.probe, self, round.target, round.incarnation});
    }
  }
}

// As the target: answer from this loop, which runs. As a helper: answer from our own recent
// heartbeats if we can, else ask the target.
void MembershipService::on_probe_request(const ProbeRequest& req, std::uint32_t from) {
  const MemberInfo& self = table_.self();
  if (req.target == self.node_id) {
    send_to(from, ProbeAck{req.probe, req.origin, self.node_id, self.incarnation, self.node_id,
                           ProbeEvidence::kAnswered});
    return;
  }
  const Member* target = table_.find(req.target);
  if (target == nullptr || target->info.state == MemberState::kDead) return;
  if (table_.heard_within(req.target, req.incarnation, Clock::now(), params_.heard_recently)) {
    send_to(req.origin, ProbeAck{req.probe, req.origin, req.target, target->info.incarnation,
                                 self.node_id, ProbeEvidence::kHeartbeat});
    return;
  }
  ProbeRequest onward = req;
  send_to(req.target, onward);
}

void MembershipService::on_probe_ack(const ProbeAck& ack, std::uint32_t from) {
  const std::uint32_t self = table_.self().node_id;
  if (ack.origin != self) {
    // We are the helper: pass on the target's own answer, as its witness.
    if (from != ack.target || ack.witness != ack.target) return;
    ProbeAck onward = ack;
    onward.witness = self;
    send_to(ack.origin, onward);
    return;
  }
  if (!probes_.answers(ack.probe, ack.target, ack.incarnation)) return;
  if (table_.vouch(ack.target, ack.incarnation, Clock::now())) {
    spdlog::info("node {} suspect but alive for node {} ({}): not declared dead yet", ack.target,
                 ack.witness, to_string(ack.evidence));
  }
}

void MembershipService::on_stale_traffic(std::uint32_t node_id, std::uint64_t incarnation) {
  const Member* m = table_.find(node_id);
  if (m == nullptr || !m->dead_incarnation || *m->dead_incarnation < incarnation) return;
  send_tombstone(node_id, *m->dead_incarnation);
}

// A heartbeat to a node declared dead whose gossip says so: it fences when it hears it.
void MembershipService::send_tombstone(std::uint32_t node_id, std::uint64_t dead_incarnation) {
  const auto now = Clock::now();
  auto [it, first] = last_tombstone_.try_emplace(node_id, now);
  if (!first && now - it->second < params_.heartbeat_interval) return;
  it->second = now;
  const Member* m = table_.find(node_id);
  if (m == nullptr) return;
  Heartbeat hb = direct_heartbeat();
  MemberInfo tombstone = m->info;
  tombstone.incarnation = dead_incarnation;
  tombstone.state = MemberState::kDead;
  hb.gossip = {table_.self(), tombstone};
  spdlog::info("telling node {} that it was declared dead at incarnation {}", node_id,
               dead_incarnation);
  tombstone_bytes_ += encode(WireMessage(hb)).size() + kFrameHeaderSize;
  send_to(node_id, hb);
}

void MembershipService::send_to(std::uint32_t node_id, const WireMessage& msg) {
  if (auto address = address_of(node_id)) transport_.send(node_id, *address, msg);
}

void MembershipService::on_peer_hello(const Hello& hello) {
  MemberInfo info;
  info.node_id = hello.node_id;
  info.incarnation = hello.incarnation;
  info.name = hello.name;
  info.address = hello.listen_address;
  info.state = MemberState::kAlive;
  publish(table_.merge(info, Clock::now()));
}

void MembershipService::on_heartbeat(const Heartbeat& hb) {
  auto now = Clock::now();
  note_arrival(hb.from, hb.incarnation, now);
  publish(table_.heartbeat(hb.from, hb.incarnation, hb.load, now));
  if (hb.suspects.size() <= kMaxSuspectsSent && !table_.is_stale(hb.from, hb.incarnation)) {
    table_.peer_view(hb.from, hb.health, hb.suspects);
  }
  for (const auto& info : hb.gossip) {
    if (info.node_id == hb.from && info.state == MemberState::kDead) {
      spdlog::info("node {} leaves the cluster (it says so)", hb.from);
    }
    publish(table_.merge(info, now, hb.from));
  }
}

void MembershipService::publish(const std::vector<MemberTransition>& transitions) {
  const std::uint32_t self = table_.self().node_id;
  bool new_self = false;
  for (const auto& t : transitions) {
    log(t);
    if (t.node_id == self) {
      transport_.set_incarnation(t.incarnation);
      new_self = true;
      if (t.from == MemberState::kSuspect) health_.refuted();
    } else if (t.to == MemberState::kDead) {
      transport_.forget(t.node_id);
    } else if (t.from == MemberState::kDead && !t.joined) {
      // Back at a higher incarnation: if that is the very process we declared dead (it refuted
      // a suspicion before hearing of its death), it must still fence.
      const Member* m = table_.find(t.node_id);
      if (m != nullptr && m->dead_incarnation) send_tombstone(t.node_id, *m->dead_incarnation);
    }
    for (const auto& s : subscribers_) s(t);
  }
  // Subscribers have fenced if they had to: tell the group our new incarnation at once.
  if (new_self && !stopped_) {
    send_heartbeats();
    beacon_.beat_now();
  }
}

void MembershipService::log(const MemberTransition& t) const {
  const Member* m = table_.find(t.node_id);
  std::string who = m ? m->info.name + " (" + m->info.address + ")" : std::string("?");
  if (t.node_id == table_.self().node_id) {
    if (t.from == MemberState::kDead) {
      spdlog::warn("we were declared dead by the cluster: fencing, rejoining as incarnation {}",
                   t.incarnation);
    } else {
      spdlog::warn("refuted a rumour that we are {}: now incarnation {}", to_string(t.from),
                   t.incarnation);
    }
  } else if (t.joined) {
    spdlog::info("node {} {} joined ({})", t.node_id, who, to_string(t.to));
  } else if (t.from == t.to) {
    spdlog::info("node {} {} restarted (incarnation {})", t.node_id, who, t.incarnation);
  } else if (t.to == MemberState::kDead) {
    spdlog::warn("node {} {} declared dead (incarnation {})", t.node_id, who, t.incarnation);
  } else if (t.to == MemberState::kSuspect) {
    spdlog::info("node {} {} suspect", t.node_id, who);
  } else {
    spdlog::info("node {} {} alive (incarnation {})", t.node_id, who, t.incarnation);
  }
}

std::optional<Endpoint> MembershipService::address_of(std::uint32_t node_id) const {
  const Member* m = table_.find(node_id);
  if (!m) return std::nullopt;
  auto ep = parse_endpoint(m->info.address);
  if (!ep) return std::nullopt;
  return *ep;
}

bool MembershipService::is_alive(std::uint32_t node_id) const {
  const Member* m = table_.find(node_id);
  return m && m->info.state != MemberState::kDead;
}

}  // namespace drift
