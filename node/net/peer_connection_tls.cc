// PeerConnection over TLS (peer_connection.h): the TLS handshake's steps, and reading and writing
// through the channel, with large bodies and bulk frames taken in steps through the network
// thread's bulk lane (idle_lane.h).
#include "node/net/peer_connection.h"

#include <openssl/ssl.h>

namespace drift {

// Runs the TLS handshake's steps as the socket allows.
void PeerConnection::tls_handshake() {
  if (closed()) return;
  auto done = tls_->handshake();
  auto flushed = tls_->flush();
  if (!done) {
    // A peer that hangs up mid-handshake (it is fencing or stopping) refused nothing.
    if (done.error().ends_with("connection closed by peer")) {
      return close("the peer hung up before TLS was set up");
    }
    const std::string why = TlsContext::refusal(tls_->ssl());
    const bool certificates = params_.tls && params_.tls->members_need_certificates();
    return close("refused TLS handshake (" +
                 (!why.empty() ? why : certificates ? "wrong secret or certificate?" : "wrong secret?") +
                 "): " + done.error());
  }
  if (!flushed) return close(flushed.error());
  if (*done) return on_tls_handshake();
  auto self = shared_from_this();
  const auto wait = *flushed ? asio::socket_base::wait_read : asio::socket_base::wait_write;
  socket_.async_wait(wait, [self](std::error_code ec) {
    if (self->closed()) return;
    if (ec) return self->close("TLS handshake: " + ec.message());
    self->tls_handshake();
  });
}

bool PeerConnection::heard_from_peer() const {
  if (!tls_) return read_end_ > 0;  // plaintext (tests only)
  return tls_ready_ || BIO_number_read(SSL_get_rbio(tls_->ssl())) > 0;  // its socket's bytes
}

void PeerConnection::on_tls_handshake() {
  if (closed()) return;
  auth_key_ = params_.secret;
  if (tls_) {
    std::string identity = kMemberIdentity;
    if (side_ == Side::kAcceptor) {
      identity = TlsContext::peer_identity(tls_->ssl());
      // No PSK but a certificate of the cluster CA: a certified member.
      certified_ = identity.empty() && TlsContext::peer_certified(tls_->ssl());
      if (certified_) identity = kMemberIdentity;
      auto who = principal_of(identity, static_cast<std::int64_t>(std::time(nullptr)),
                              params_.tls->revoked());
      if (!who) return close("refused TLS handshake: " + who.error());
      principal_ = *who;
    }
    auth_key_ = tls_psk(params_.secret, identity);
  }
  tls_ready_ = true;
  if (side_ == Side::kConnector) send_now(our_hello_);
  read_more();
}

// Over TLS: frames are encrypted, in queue order, into the channel's memory pair, which is sent
// whenever it fills and once the queue is empty; when the socket takes no more, the rest waits
// until it is writable. Many small frames thus leave in one send, a large one in a few. Bulk
// frames are encrypted at most IdleLane::kBulkStep bytes per call; the next step waits in the
// bulk lane, behind whatever else the network thread has to do.
void PeerConnection::write_next_tls() {
  if (writing_ || state_ == State::kClosed || !tls_ready_) return;
  if (bulk_step_queued_ && in_flight_.size() != 0) return;  // a bulk frame half sent: its step
  std::size_t bulk_bytes = 0;
  while (true) {
    if (in_flight_.size() == 0) {
      const bool ordinary = !write_queue_.empty();
      if (!ordinary && (bulk_queue_.empty() || bulk_step_queued_)) break;
      if (!ordinary && params_.bulk_lane && bulk_bytes >= IdleLane::kBulkStep) {
        return queue_bulk_step();
      }
      if (ordinary) {
        in_flight_ = take_coalesced(write_queue_);  // frame_coalescing.h
      } else {
        in_flight_ = std::move(bulk_queue_.front());
        bulk_queue_.pop_front();
      }
      dequeued(in_flight_);
      resume_reads_if_drained();
      in_flight_done_ = 0;
      in_flight_bulk_ = !ordinary;
    }
    const auto rest = buffers_of(in_flight_, in_flight_done_)[0];
    auto taken = tls_->write({static_cast<const std::uint8_t*>(rest.data()), rest.size()});
    if (!taken) return close(taken.error());
    in_flight_done_ += *taken;
    if (in_flight_bulk_) bulk_bytes += *taken;
    if (in_flight_done_ == in_flight_.size()) {
      in_flight_ = Frame{};
      continue;
    }
    if (*taken > 0) {
      if (in_flight_bulk_ && params_.bulk_lane && bulk_bytes >= IdleLane::kBulkStep) {
        return queue_bulk_step();
      }
      continue;
    }
    auto flushed = tls_->flush();  // the pair is full
    if (!flushed) return close(flushed.error());
    if (!*flushed) return wait_writable();
  }
  auto flushed = tls_->flush();
  if (!flushed) return close(flushed.error());
  if (!*flushed) return wait_writable();
  half_close_if_done();
}

// Sends what is encrypted, and leaves the next step of the bulk frames to the bulk lane (or to
// the socket, if it takes no more now).
void PeerConnection::queue_bulk_step() {
  auto flushed = tls_->flush();
  if (!flushed) return close(flushed.error());
  if (!*flushed) return wait_writable();
  bulk_step_queued_ = true;
  auto self = shared_from_this();
  params_.bulk_lane->post([self] {
    self->bulk_step_queued_ = false;
    if (!self->closed()) self->write_next_tls();
  });
}

void PeerConnection::wait_writable() {
  writing_ = true;
  auto self = shared_from_this();
  socket_.async_wait(asio::socket_base::wait_write, [self](std::error_code ec) {
    self->writing_ = false;
    if (self->closed()) return;
    if (ec) return self->close("write failed: " + ec.message());
    self->write_next_tls();
  });
}

// Over TLS: what the channel has decrypted, else a wait until the socket is readable. Data is
// handled from the event loop, as an async read's would be, never by recursion.
void PeerConnection::tls_read_more() {
  auto self = shared_from_this();
  if (!read_error_.empty()) {  // found after the last bytes read, which are handled now
    const bool in_frame = read_end_ > read_begin_;
    return close(in_frame ? "connection lost in a frame: " + read_error_ : read_error_);
  }
  // Every record there is, while the buffer has room: one handler for a burst of small frames
  // (a record each), not one per record.
  std::size_t got = 0;
  while (read_end_ + got < read_buf_.size()) {
    auto n = tls_->read({read_buf_.data() + read_end_ + got, read_buf_.size() - read_end_ - got});
    if (!n) {
      if (tls_->has_output()) write_next_tls();  // an alert
      // The end of the stream (or an error) right behind the last records: those are whole
      // frames to handle first — a peer's last words, such as that it leaves.
      read_error_ = n.error();
      if (got > 0) break;
      return tls_read_more();
    }
    if (*n == 0) break;
    got += *n;
  }
  if (tls_->has_output()) write_next_tls();  // what reading may have made it say (an alert)
  if (got > 0) {
    return asio::post(socket_.get_executor(), [self, got] {
      if (self->closed()) return;
      self->read_end_ += got;
      self->parse_frames();
    });
  }
  socket_.async_wait(asio::socket_base::wait_read, [self](std::error_code ec) {
    if (self->closed()) return;
    if (ec) return self->close(ec.message());
    self->tls_read_more();
  });
}

// Over TLS: reads `rest` of a large body, then handles it: at most IdleLane::kBulkStep bytes
// per call, the rest (and the body's handling) in the bulk lane.
void PeerConnection::tls_fill(std::span<std::uint8_t> rest, FrameHeader header) {
  auto self = shared_from_this();
  std::size_t step = 0;
  while (!rest.empty()) {
    if (params_.bulk_lane && step >= IdleLane::kBulkStep) {
      return params_.bulk_lane->post([self, rest, header] {
        if (!self->closed()) self->tls_fill(rest, header);
      });
    }
    auto n = tls_->read(rest);
    if (!n) return close("connection lost in a frame body: " + n.error());
    if (*n == 0) {
      return socket_.async_wait(asio::socket_base::wait_read, [self, rest, header](std::error_code ec) {
        if (self->closed()) return;
        if (ec) return self->close("connection lost in a frame body: " + ec.message());
        self->tls_fill(rest, header);
      });
    }
    rest = rest.subspan(*n);
    step += *n;
  }
  post_bulk(params_.bulk_lane, socket_.get_executor(), [self, header] {
    if (self->closed()) return;
    self->on_large_body(header);
    self->parse_frames();
  });
}

}  // namespace drift
