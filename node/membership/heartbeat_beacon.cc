// The heartbeat thread and its connections (heartbeat_beacon.h).
#include "node/membership/heartbeat_beacon.h"

#include <algorithm>
#include <utility>

#include <spdlog/spdlog.h>

#include "protocol/codec.h"

namespace drift {

HeartbeatBeacon::HeartbeatBeacon(Params params)
    : params_(std::move(params)), work_(io_.get_executor()), timer_(io_) {}

HeartbeatBeacon::~HeartbeatBeacon() { stop(); }

void HeartbeatBeacon::start() {
  thread_ = std::thread([this] {
    asio::post(io_, [this] {
      due_ = Clock::now() + params_.interval;
      arm();
    });
    io_.run();
  });
}

void HeartbeatBeacon::stop() {
  if (stopped_.exchange(true)) return;
  asio::post(io_, [this] {
    timer_.cancel();
    for (auto& [id, link] : links_) {
      if (link.conn) link.conn->close("shutting down");
    }
    links_.clear();
    work_.reset();
  });
  if (thread_.joinable()) thread_.join();
}

void HeartbeatBeacon::update(Heartbeat heartbeat, std::vector<Target> group, Hello self) {
  std::lock_guard lock(mutex_);
  heartbeat_ = std::move(heartbeat);
  group_ = std::move(group);
  self_ = std::move(self);
  updated_ = Clock::now();
  has_update_ = true;
}

void HeartbeatBeacon::beat_now() {
  asio::post(io_, [this] {
    if (!stopped_) send_all();
  });
}

std::chrono::milliseconds HeartbeatBeacon::take_lateness() {
  return std::chrono::milliseconds(lateness_ms_.exchange(0));
}

std::vector<HeartbeatBeacon::Refusal> HeartbeatBeacon::take_refused() {
  std::lock_guard lock(mutex_);
  return std::exchange(refused_, {});
}

// Ticks at fixed due times, so one late tick does not shift the ones after it.
void HeartbeatBeacon::arm() {
  timer_.expires_at(due_);
  timer_.async_wait([this](std::error_code ec) {
    if (ec || stopped_) return;
    tick();
    arm();
  });
}

void HeartbeatBeacon::tick() {
  const auto now = Clock::now();
  const auto late = std::chrono::duration_cast<std::chrono::milliseconds>(now - due_);
  std::int64_t seen = lateness_ms_.load();
  while (late.count() > seen && !lateness_ms_.compare_exchange_weak(seen, late.count())) {
  }
  due_ += params_.interval;
  if (due_ < now) due_ = now + params_.interval;  // starved for more than a beat: start over
  send_all();
}

void HeartbeatBeacon::send_all() {
  Heartbeat hb;
  std::vector<Target> group;
  Hello self;
  Clock::time_point updated;
  {
    std::lock_guard lock(mutex_);
    if (!has_update_) return;
    hb = heartbeat_;
    group = group_;
    self = self_;
    updated = updated_;
  }
  const auto now = Clock::now();
  const auto lag = std::chrono::duration_cast<std::chrono::milliseconds>(now - updated);
  if (lag > params_.hang_timeout) {
    if (!silent_) {
      spdlog::error("the network thread has not run for {} ms (membership.hang_timeout_ms {}): "
                    "heartbeats stop until it does, so the cluster can take our work elsewhere",
                    lag.count(), params_.hang_timeout.count());
    }
    silent_ = true;
    return;
  }
  if (silent_) spdlog::warn("the network thread runs again: heartbeats resume");
  silent_ = false;
  if (self.incarnation != incarnation_) {
    // A refutation or a fence: the peers must see the new identity on every connection.
    for (auto& [id, link] : links_) {
      if (link.conn) link.conn->close("our incarnation changed");
    }
    links_.clear();
    incarnation_ = self.incarnation;
  }
  std::map<std::uint32_t, Link> kept;
  for (const Target& t : group) {
    auto it = links_.find(t.node_id);
    Link link = it == links_.end() ? Link{} : std::move(it->second);
    if (it != links_.end()) links_.erase(it);
    if (!(link.address == t.address) && link.conn) link.conn->close("address changed");
    if (!(link.address == t.address)) link = Link{t.address, nullptr, {}, {}};
    kept.emplace(t.node_id, std::move(link));
  }
  for (auto& [id, link] : links_) {
    if (link.conn) link.conn->close("left our local group");
  }
  links_ = std::move(kept);

  hb.sequence = ++sequence_;
  const Frame frame = make_frame(encode(WireMessage(hb)));
  const double drop = drop_.load();
  for (auto& [id, link] : links_) {
    if (!link.conn || link.conn->closed()) {
      link.conn.reset();
      if (now >= link.next_dial) dial(id, link);
    }
    if (!link.conn) continue;
    if (drop > 0) {  // xorshift: cheap, and no shared generator with other threads
      drop_state_ ^= drop_state_ << 13, drop_state_ ^= drop_state_ >> 7, drop_state_ ^= drop_state_ << 17;
      if (static_cast<double>(drop_state_ >> 11) * 0x1.0p-53 < drop) continue;
    }
    link.conn->send(frame);  // held until the handshake completes, then sent
    bytes_sent_ += frame.size();
  }
}

void HeartbeatBeacon::dial(std::uint32_t node_id, Link& link) {
  std::error_code ec;
  auto address = asio::ip::make_address(link.address.literal_host(), ec);
  link.backoff = link.backoff.count() == 0
                     ? params_.interval
                     : std::min(link.backoff * 2, params_.reconnect_max);
  link.next_dial = Clock::now() + link.backoff;
  if (ec) return;
  // A blocking connect would hold the beats to everyone else: connect asynchronously, and only
  // then make the connection.
  auto pending = std::make_shared<asio::ip::tcp::socket>(io_);
  const Clock::time_point dialed = Clock::now();
  Hello self;
  {
    std::lock_guard lock(mutex_);
    self = self_;
  }
  pending->async_connect(
      asio::ip::tcp::endpoint(address, link.address.port),
      [this, node_id, pending, self, dialed, address = link.address](std::error_code e) {
        if (stopped_) return;
        if (e == asio::error::connection_refused) {
          std::lock_guard lock(mutex_);
          auto known = std::find_if(refused_.begin(), refused_.end(),
                                    [&](const Refusal& r) { return r.node_id == node_id; });
          if (known == refused_.end()) {
            refused_.push_back({node_id, dialed});
          } else {
            known->dialed = std::max(known->dialed, dialed);  // the latest says most
          }
        }
        auto it = links_.find(node_id);
        if (e || it == links_.end() || !(it->second.address == address) || it->second.conn ||
            self.incarnation != incarnation_) {
          return;
        }
        ConnectionListener& listener = *this;
        it->second.conn = std::make_shared<PeerConnection>(std::move(*pending),
                                                           PeerConnection::Side::kConnector,
                                                           params_.handshake, listener);
        it->second.conn->start(self);
        it->second.backoff = std::chrono::milliseconds(0);
      });
}

// Peers send nothing but their half of the handshake here (their answers go on their own
// connections to us); anything else is dropped.
void HeartbeatBeacon::on_message(const ConnectionPtr& conn, WireMessage&&) {
  spdlog::debug("{} sent a message on our heartbeat connection: dropped", conn->describe());
}

void HeartbeatBeacon::on_chunk(const ConnectionPtr& conn, const ChunkView&) {
  conn->close("refused: state on a heartbeat connection");
}

void HeartbeatBeacon::on_closed(const ConnectionPtr& conn, const std::string& reason) {
  spdlog::debug("heartbeat connection to {} closed: {}", conn->describe(), reason);
  for (auto& [id, link] : links_) {
    if (link.conn == conn) link.conn.reset();
  }
}

}  // namespace drift
