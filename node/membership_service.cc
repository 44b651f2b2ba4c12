#include "node/membership_service.h"

#include <spdlog/spdlog.h>

#include "protocol/codec.h"

namespace drift {

namespace {
using Clock = std::chrono::steady_clock;
}

MembershipService::MembershipService(asio::io_context& io, Transport& transport,
                                     MemberTable& table, Params params, LoadSource load)
    : io_(io),
      transport_(transport),
      table_(table),
      params_(params),
      load_(std::move(load)),
      timer_(io) {}

void MembershipService::start(const std::vector<Endpoint>& seeds) {
  for (const auto& seed : seeds) transport_.connect_seed(seed);
  arm();
}

void MembershipService::stop() {
  stopped_ = true;
  timer_.cancel();
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
  auto now = Clock::now();
  const LoadIndex load = load_();  // reads /proc and sums the meter: once per round
  table_.set_self_load(load);
  publish(table_.tick(now));
  Heartbeat hb;
  hb.from = table_.self().node_id;
  hb.incarnation = table_.self().incarnation;
  hb.sequence = ++sequence_;
  hb.load = load;
  if (counters_) hb.counters = counters_();
  hb.gossip = table_.gossip(params_.gossip_entries);
  Frame frame = make_frame(encode(WireMessage(hb)));
  for (std::uint32_t id : table_.local_group(params_.group_size)) {
    if (auto address = address_of(id)) {
      transport_.send(id, *address, frame);
      if (sent_) sent_(frame.size());
    }
  }
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
  publish(table_.heartbeat(hb.from, hb.incarnation, hb.load, now));
  for (const auto& info : hb.gossip) publish(table_.merge(info, now));
}

void MembershipService::publish(const std::vector<MemberTransition>& transitions) {
  for (const auto& t : transitions) {
    const Member* m = table_.find(t.node_id);
    std::string who = m ? m->info.name + " (" + m->info.address + ")" : std::string("?");
    if (t.node_id == table_.self().node_id) {
      spdlog::warn("refuted a rumour about us: now incarnation {}", t.incarnation);
    } else if (t.joined) {
      spdlog::info("node {} {} joined ({})", t.node_id, who, to_string(t.to));
    } else if (t.from == t.to) {
      spdlog::info("node {} {} restarted (incarnation {})", t.node_id, who, t.incarnation);
    } else if (t.to == MemberState::kDead) {
      spdlog::warn("node {} {} declared dead (incarnation {})", t.node_id, who, t.incarnation);
      transport_.forget(t.node_id);
    } else if (t.to == MemberState::kSuspect) {
      spdlog::info("node {} {} suspect", t.node_id, who);
    } else {
      spdlog::info("node {} {} alive (incarnation {})", t.node_id, who, t.incarnation);
    }
    for (const auto& s : subscribers_) s(t);
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
