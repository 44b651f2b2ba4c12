#include "node/net/transport.h"

#include <spdlog/spdlog.h>

#include "node/net/refusal_kind.h"
#include "protocol/codec.h"

namespace drift {

Transport::Transport(asio::io_context& io, Params params, Hello self)
    : io_(io),
      params_(std::move(params)),
      self_(std::move(self)),
      acceptor_(io),
      trim_timer_(io),
      faults_(std::random_device{}()),
      held_timer_(io),
      linger_timer_(io) {}

Status Transport::listen(const Endpoint& at) {
  std::error_code ec;
  auto address = asio::ip::make_address(at.literal_host(), ec);
  if (ec) return Status::error("cannot listen on " + at.to_string() + ": " + ec.message());
  asio::ip::tcp::endpoint ep(address, at.port);
  acceptor_.open(ep.protocol(), ec);
  if (!ec) acceptor_.set_option(asio::ip::tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor_.bind(ep, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) return Status::error("cannot listen on " + at.to_string() + ": " + ec.message());
  accept_next();
  trim_buffers();
  return Status::ok();
}

// State chunks reuse pooled buffers between moves; half a minute to a minute without a move
// gives them back.
void Transport::trim_buffers() {
  BufferPool::shared().trim_if_unused();
  trim_timer_.expires_after(std::chrono::seconds(30));
  trim_timer_.async_wait([this](std::error_code ec) {
    if (!ec && !stopping_) trim_buffers();
  });
}

void Transport::accept_next() {
  acceptor_.async_accept([this](std::error_code ec, asio::ip::tcp::socket socket) {
    if (stopping_) return;
    if (ec) {
      spdlog::warn("accept failed: {}", ec.message());
    } else {
      admit(std::move(socket));
    }
    accept_next();
  });
}

// A stranger's connection starts its handshake only within the admission limits; until it is
// authenticated it counts against them.
void Transport::admit(asio::ip::tcp::socket socket) {
  std::error_code ec;
  const auto remote = socket.remote_endpoint(ec);
  if (ec) return;  // already gone
  const std::string address = remote.address().to_string();
  const auto now = std::chrono::steady_clock::now();
  if (const auto full = admission_.full(address, now);
      full == Admission::Full::kAddress || full == Admission::Full::kAll) {
    make_room(full == Admission::Full::kAddress ? &address : nullptr, now);
  }
  if (std::string why = admission_.admit(address, now); !why.empty()) {
    ++frames_refused_;
    ++refused_by_kind_[refusal_kind("refused a connection")];
    if (refusal_log_.allow(LogLimiter::Clock::now())) {
      spdlog::warn("refused a connection from {}: {}", remote.address().to_string() + ":" +
                   std::to_string(remote.port()), why);
    }
    socket.close(ec);
    return;
  }
  auto conn = make_connection(std::move(socket), PeerConnection::Side::kAcceptor);
  unsettled_[conn.get()] = Unsettled{address, now, conn};
  conn->start(self_);
}

void Transport::settle(const ConnectionPtr& conn) {
  const auto it = unsettled_.find(conn.get());
  if (it == unsettled_.end()) return;
  admission_.settled(it->second.address);
  unsettled_.erase(it);
}

void Transport::make_room(const std::string* address, std::chrono::steady_clock::time_point now) {
  // Only one that has sent nothing at all: a real client's first bytes (its TLS hello) come at
  // once, however slow the rest of its handshake (a PC at a hundredth of a core, a long RTT).
  auto oldest = unsettled_.end();
  for (auto it = unsettled_.begin(); it != unsettled_.end(); ++it) {
    if (address && it->second.address != *address) continue;
    const ConnectionPtr c = it->second.conn.lock();
    if (!c || c->heard_from_peer()) continue;
    if (oldest == unsettled_.end() || it->second.since < oldest->second.since) oldest = it;
  }
  if (oldest == unsettled_.end() || now - oldest->second.since < kYieldAfter) return;
  ConnectionPtr conn = oldest->second.conn.lock();
  ++refused_by_kind_[refusal_kind("refused a connection")];
  if (refusal_log_.allow(LogLimiter::Clock::now())) {
    spdlog::warn("closed a connection from {} still in its handshake after {} ms: another "
                 "waited for its place", oldest->second.address,
                 std::chrono::duration_cast<std::chrono::milliseconds>(now - oldest->second.since)
                     .count());
  }
  admission_.settled(oldest->second.address);
  unsettled_.erase(oldest);
  if (conn) conn->close("its handshake took too long while other connections waited");
}

ConnectionPtr Transport::make_connection(asio::ip::tcp::socket socket,
                                         PeerConnection::Side side) {
  ConnectionListener& listener = *this;
  auto conn = std::make_shared<PeerConnection>(std::move(socket), side, params_.handshake, listener);
  connections_.insert(conn);
  return conn;
}

void Transport::connect_seed(const Endpoint& seed) { dial_seed(seed, params_.reconnect_min); }

void Transport::dial_once(const Endpoint& address) {
  dial_seed(address, params_.reconnect_min, false);
}

void Transport::dial_seed(const Endpoint& seed, std::chrono::milliseconds backoff, bool again) {
  auto socket = std::make_shared<asio::ip::tcp::socket>(io_);
  auto resolver = std::make_shared<asio::ip::tcp::resolver>(io_);
  resolver->async_resolve(
      seed.host, std::to_string(seed.port),
      [this, seed, backoff, again, socket, resolver](std::error_code ec, auto results) {
        if (stopping_) return;
        auto retry = [this, seed, backoff, again] {
          if (again) redial_seed(seed, backoff);
        };
        if (ec) {
          if (again) {
            spdlog::warn("seed {}: {}; retrying in {} ms", seed.to_string(), ec.message(),
                         backoff.count());
          }
          return retry();
        }
        asio::async_connect(*socket, results, [this, seed, backoff, again, socket,
                                               retry](std::error_code e, const auto&) {
          if (stopping_) return;
          if (e) {
            spdlog::debug("seed {} unreachable: {}", seed.to_string(), e.message());
            return retry();
          }
          auto conn = make_connection(std::move(*socket), PeerConnection::Side::kConnector);
          if (again) seed_dials_[conn.get()] = SeedDial{seed, backoff};
          conn->start(self_);
        });
      });
}

void Transport::redial_seed(const Endpoint& seed, std::chrono::milliseconds backoff) {
  auto timer = std::make_shared<asio::steady_timer>(io_, backoff);
  timer->async_wait([this, seed, backoff, timer](std::error_code e) {
    if (!e && !stopping_) dial_seed(seed, std::min(backoff * 2, params_.reconnect_max));
  });
}

void Transport::send(std::uint32_t node_id, const Endpoint& address, const WireMessage& msg) {
  send(node_id, address, make_frame(encode(msg)));
}

void Transport::send(std::uint32_t node_id, const Endpoint& address, Frame frame, bool bulk) {
  if (stopping_) return;
  if (faults_.active() || !held_.empty()) return send_with_faults(node_id, address, std::move(frame), bulk);
  send_now(node_id, address, std::move(frame), bulk);
}

// TESTING ONLY: drop, duplicate or hold the frame as the frame faults say. Frames are immutable,
// so a duplicate is the same frame queued twice. Held frames keep their order.
void Transport::send_with_faults(std::uint32_t node_id, const Endpoint& address, Frame frame,
                                 bool bulk) {
  const int copies = faults_.copies();
  const auto due = std::chrono::steady_clock::now() + faults_.delay();
  for (int i = 0; i < copies; ++i) held_.push_back(HeldFrame{due, node_id, address, frame, bulk});
  release_held();
}

void Transport::release_held() {
  const auto now = std::chrono::steady_clock::now();
  while (!held_.empty() && held_.front().due <= now) {
    HeldFrame h = std::move(held_.front());
    held_.pop_front();
    send_now(h.node_id, h.address, std::move(h.frame), h.bulk);
  }
  if (held_.empty() || stopping_) return;
  held_timer_.expires_at(held_.front().due);
  held_timer_.async_wait([this](std::error_code ec) {
    if (!ec && !stopping_) release_held();
  });
}

void Transport::send_now(std::uint32_t node_id, const Endpoint& address, Frame frame, bool bulk) {
  auto& link = links_[node_id];
  link.address = address;
  if (link.conn && !link.conn->closed()) {
    link.conn->send(std::move(frame), bulk);
    return;
  }
  link.pending_bytes += frame.size();
  link.pending.emplace_back(std::move(frame), bulk);
  while (link.pending_bytes > kMaxPendingBytes && !link.pending.empty()) {
    link.pending_bytes -= link.pending.front().first.size();
    link.pending.pop_front();
    spdlog::warn("node {} unreachable: dropped a queued frame (over {} bytes queued)", node_id,
                 kMaxPendingBytes);
  }
  if (!link.connecting && !link.retry) dial(node_id);
}

void Transport::dial(std::uint32_t node_id) {
  auto& link = links_[node_id];
  std::error_code ec;
  auto address = asio::ip::make_address(link.address.literal_host(), ec);
  if (ec) {
    spdlog::warn("node {}: bad address {}: {}", node_id, link.address.to_string(), ec.message());
    return schedule_redial(node_id);
  }
  link.connecting = true;
  auto socket = std::make_shared<asio::ip::tcp::socket>(io_);
  asio::ip::tcp::endpoint ep(address, link.address.port);
  socket->async_connect(ep, [this, node_id, socket](std::error_code e) {
    auto it = links_.find(node_id);
    if (stopping_ || it == links_.end()) return;
    Link& l = it->second;
    l.connecting = false;
    if (e) {
      spdlog::debug("node {} at {} unreachable: {}", node_id, l.address.to_string(), e.message());
      return schedule_redial(node_id);
    }
    attach(l, make_connection(std::move(*socket), PeerConnection::Side::kConnector));
    l.conn->start(self_);
  });
}

// Makes conn the link's connection; frames queued while unconnected go first.
void Transport::attach(Link& link, ConnectionPtr conn) {
  link.conn = std::move(conn);
  link.backoff = std::chrono::milliseconds(0);
  while (!link.pending.empty()) {
    auto& [frame, bulk] = link.pending.front();
    link.conn->send(std::move(frame), bulk);
    link.pending.pop_front();
  }
  link.pending_bytes = 0;
}

void Transport::schedule_redial(std::uint32_t node_id) {
  auto it = links_.find(node_id);
  if (it == links_.end() || stopping_) return;
  Link& l = it->second;
  l.backoff = l.backoff.count() == 0 ? params_.reconnect_min
                                     : std::min(l.backoff * 2, params_.reconnect_max);
  l.retry = std::make_unique<asio::steady_timer>(io_, l.backoff);
  l.retry->async_wait([this, node_id](std::error_code ec) {
    if (ec || stopping_) return;
    auto it2 = links_.find(node_id);
    if (it2 == links_.end()) return;
    it2->second.retry.reset();
    if (!it2->second.conn || it2->second.conn->closed()) dial(node_id);
  });
}

void Transport::forget(std::uint32_t node_id) {
  auto it = links_.find(node_id);
  if (it == links_.end()) return;
  if (it->second.retry) it->second.retry->cancel();
  auto conn = it->second.conn;
  links_.erase(it);
  if (conn) conn->close("node " + std::to_string(node_id) + " forgotten");
}

std::size_t Transport::close_node_connections(const std::string& reason) {
  for (auto& [id, link] : links_) {
    if (link.retry) link.retry->cancel();
  }
  links_.clear();  // before closing, so that on_closed schedules no redial
  std::size_t closed = 0;
  auto all = connections_;
  for (const auto& c : all) {
    if (c->authenticated() && c->peer().role == PeerRole::kClient) continue;
    c->close(reason);
    ++closed;
  }
  return closed;
}

void Transport::close_revoked(const std::set<std::string>& names) {
  std::vector<ConnectionPtr> revoked;
  for (const auto& conn : connections_) {
    if (conn->principal().role != Role::kMember && names.contains(conn->principal().name)) {
      revoked.push_back(conn);
    }
  }
  for (const auto& conn : revoked) conn->close("its token is revoked");
}

void Transport::shutdown(std::chrono::milliseconds linger, std::function<void()> done) {
  stopping_ = true;
  std::error_code ignored;
  acceptor_.close(ignored);
  trim_timer_.cancel();
  held_timer_.cancel();
  held_.clear();
  for (auto& [id, link] : links_) {
    if (link.retry) link.retry->cancel();
  }
  links_.clear();
  shutdown_done_ = std::move(done);
  auto all = connections_;
  for (const auto& c : all) c->finish("shutting down");
  if (connections_.empty()) return shutdown_done();
  linger_timer_.expires_after(linger);
  linger_timer_.async_wait([this](std::error_code ec) {
    if (ec) return;
    auto left = connections_;
    for (const auto& c : left) c->close("shutting down (the peer did not end the connection in time)");
    shutdown_done();
  });
}

void Transport::shutdown_done() {
  linger_timer_.cancel();
  if (auto done = std::exchange(shutdown_done_, nullptr)) asio::post(io_, std::move(done));
}

void Transport::on_authenticated(const ConnectionPtr& conn) {
  settle(conn);
  seed_dials_.erase(conn.get());  // the link (if a node) redials it from now on
  const Hello& peer = conn->peer();
  spdlog::debug("authenticated {} ({})", conn->describe(),
                conn->side() == PeerConnection::Side::kConnector ? "outgoing" : "incoming");
  if (peer.role == PeerRole::kNode && conn->side() == PeerConnection::Side::kConnector) {
    // A seed we dialled by address becomes the outgoing link to that node.
    auto& link = links_[peer.node_id];
    if (!link.conn || link.conn->closed()) {
      auto parsed = parse_endpoint(peer.listen_address);
      if (parsed) link.address = *parsed;
      if (link.retry) link.retry->cancel();
      link.retry.reset();
      attach(link, conn);
    }
  }
  if (peer.role == PeerRole::kNode && peer_handler_) peer_handler_(conn);
}

void Transport::on_frame_received(std::uint16_t type, std::size_t bytes) {
  if (type == static_cast<std::uint16_t>(MsgType::kHeartbeat)) {
    heartbeat_bytes_in_ += bytes;
  } else if (type == static_cast<std::uint16_t>(MsgType::kBalanceRequest) ||
             type == static_cast<std::uint16_t>(MsgType::kBalanceReservation)) {
    balance_bytes_in_ += bytes;
  }
}

void Transport::on_message(const ConnectionPtr& conn, WireMessage&& msg) {
  if (message_handler_) message_handler_(conn, std::move(msg));
}

void Transport::on_chunk(const ConnectionPtr& conn, const ChunkView& chunk) {
  if (chunk_handler_) chunk_handler_(conn, chunk);
}

void Transport::on_closed(const ConnectionPtr& conn, const std::string& reason) {
  settle(conn);
  connections_.erase(conn);
  if (shutdown_done_ && connections_.empty()) shutdown_done();  // set only while stopping
  if (auto seed = seed_dials_.extract(conn.get()); !seed.empty() && !stopping_) {
    spdlog::debug("seed {}: closed before it said who it is ({}); dialling it again in {} ms",
                  seed.mapped().seed.to_string(), reason, seed.mapped().backoff.count());
    redial_seed(seed.mapped().seed, seed.mapped().backoff);
  }
  // A handshake that does not finish on a connection we dialled is a member that does not
  // answer (stopped, or the redial of a dead one), not a refusal: no warning every redial.
  const bool unanswered = conn->side() == PeerConnection::Side::kConnector &&
                          reason.find("not completed in time") != std::string::npos;
  bool refused = !unanswered && (reason.rfind("refused", 0) == 0 ||
                                 reason.find("handshake") != std::string::npos);
  if (refused) {
    ++frames_refused_;
    ++refused_by_kind_[refusal_kind(reason)];
    if (refusal_log_.allow(LogLimiter::Clock::now())) {
      if (refusal_log_.suppressed() > 0) {
        spdlog::warn("closed {}: {} ({} more refusals not logged; {} in all)", conn->describe(),
                     reason, refusal_log_.suppressed(), frames_refused_);
      } else {
        spdlog::warn("closed {}: {}", conn->describe(), reason);
      }
    }
  } else {
    spdlog::debug("closed {}: {}", conn->describe(), reason);
  }
  if (closed_handler_) closed_handler_(conn, reason);
  if (stopping_ || conn->side() != PeerConnection::Side::kConnector) return;
  for (auto& [id, link] : links_) {
    if (link.conn == conn) {
      link.conn.reset();
      schedule_redial(id);
      break;
    }
  }
}

}  // namespace drift
