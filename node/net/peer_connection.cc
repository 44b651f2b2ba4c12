#include "node/net/peer_connection.h"

#include <spdlog/spdlog.h>

#include <cstring>
#include <ctime>

#include "protocol/codec.h"
#include "protocol/handshake.h"

namespace drift {

PeerConnection::PeerConnection(asio::ip::tcp::socket socket, Side side,
                               const HandshakeParams& params, ConnectionListener& listener)
    : socket_(std::move(socket)),
      handshake_deadline_(socket_.get_executor()),
      side_(side),
      params_(params),
      listener_(listener),
      read_buf_(kHandshakeReadBytes) {
  std::error_code ec;
  auto ep = socket_.remote_endpoint(ec);
  remote_ = ec ? std::string("?") : ep.address().to_string() + ":" + std::to_string(ep.port());
  socket_.set_option(asio::ip::tcp::no_delay(true), ec);
  socket_.non_blocking(true, ec);  // write_next() writes at once; it must never wait
  tls_ready_ = !params.tls;
}

std::string PeerConnection::describe() const {
  if (state_ == State::kOpen || state_ == State::kClosed) {
    if (peer_hello_.role == PeerRole::kNode && peer_hello_.node_id != 0) {
      return "node " + std::to_string(peer_hello_.node_id) + " (" + remote_ + ")";
    }
    if (peer_hello_.role == PeerRole::kClient) {
      return principal_.role == Role::kMember
                 ? "client " + remote_
                 : std::string(to_string(principal_.role)) + " '" + principal_.name + "' (" + remote_ + ")";
    }
  }
  return "peer " + remote_;
}

void PeerConnection::start(Hello ours) {
  ours.nonce = random_nonce();
  our_hello_ = std::move(ours);
  auto self = shared_from_this();
  handshake_deadline_.expires_after(params_.handshake_timeout);
  handshake_deadline_.async_wait([self](std::error_code ec) {
    if (!ec && !self->authenticated()) {
      self->close(self->tls_ready_ ? "handshake not completed in time"
                                   : "TLS handshake not completed in time");
    }
  });
  if (!params_.tls) return on_tls_handshake();
  auto channel = TlsChannel::make(*params_.tls, socket_.native_handle(), side_ == Side::kAcceptor);
  if (!channel) return close(channel.error());
  tls_ = std::move(channel).value();
  tls_handshake();
}

void PeerConnection::send(Frame frame, bool bulk) {
  if (state_ == State::kClosed) return;
  if (state_ != State::kOpen) {
    held_until_auth_.emplace_back(std::move(frame), bulk);
    return;
  }
  queued(frame);
  (bulk ? bulk_queue_ : write_queue_).push_back(std::move(frame));
  schedule_write();
}

// The write waits for the end of what the network thread is doing: the frames queued meanwhile
// (the answers to a batch of frames read, a worker's burst of effects) go out together, in one
// system call and, over TLS, in as few records as fit, and the peer wakes once for them.
void PeerConnection::schedule_write() {
  if (write_posted_) return;
  write_posted_ = true;
  asio::post(socket_.get_executor(), [self = shared_from_this()] {
    self->write_posted_ = false;
    if (!self->closed()) self->write_next();
  });
}

void PeerConnection::send(const WireMessage& msg) { send(make_frame(encode(msg))); }

void PeerConnection::send_now(const WireMessage& msg) {
  write_queue_.push_back(make_frame(encode(msg)));
  queued(write_queue_.back());
  write_next();
}

// Only a client's reads wait for its answers to leave: a daemon's never do, since two daemons
// each waiting for the other to read would wait for ever.
bool PeerConnection::reads_held() const {
  return peer_hello_.role == PeerRole::kClient && queued_bytes_ > kClientBacklogBytes;
}

void PeerConnection::resume_reads_if_drained() {
  if (!reads_paused_ || queued_bytes_ > kClientBacklogBytes / 2) return;
  reads_paused_ = false;
  asio::post(socket_.get_executor(), [self = shared_from_this()] {
    if (!self->closed()) self->parse_frames();
  });
}

// The buffers of `frame` from byte `offset` on.
std::array<asio::const_buffer, 2> PeerConnection::buffers_of(const Frame& frame,
                                                             std::size_t offset) {
  asio::const_buffer head = frame.head ? asio::buffer(*frame.head) : asio::const_buffer();
  asio::const_buffer tail = asio::buffer(frame.tail.data(), frame.tail.size());
  if (offset < head.size()) return {head + offset, tail};
  return {tail + (offset - head.size()), asio::const_buffer()};
}

// Writes queued frames at once while the socket takes them; the first one it does not take
// whole is finished by async_write, and the queue waits for it. Over TLS, see write_next_tls.
void PeerConnection::write_next() {
  if (tls_) return write_next_tls();
  while (!writing_ && state_ != State::kClosed) {
    auto& queue = write_queue_.empty() ? bulk_queue_ : write_queue_;
    if (queue.empty()) return half_close_if_done();
    in_flight_ = std::move(queue.front());
    queue.pop_front();
    dequeued(in_flight_);
    resume_reads_if_drained();
    std::error_code ec;
    const std::size_t written = socket_.write_some(buffers_of(in_flight_, 0), ec);
    if (ec && ec != asio::error::would_block && ec != asio::error::try_again) {
      in_flight_ = Frame{};
      return close("write failed: " + ec.message());
    }
    if (!ec && written == in_flight_.size()) {
      in_flight_ = Frame{};
      continue;
    }
    writing_ = true;
    auto self = shared_from_this();
    asio::async_write(socket_, buffers_of(in_flight_, ec ? 0 : written),
                      [self](std::error_code e, std::size_t) {
                        self->writing_ = false;
                        self->in_flight_ = Frame{};
                        if (self->closed()) return;
                        if (e) return self->close("write failed: " + e.message());
                        self->write_next();
                      });
  }
}

void PeerConnection::close(const std::string& reason) {
  if (state_ == State::kClosed) return;
  if (write_posted_ && state_ == State::kOpen) {
    write_posted_ = false;
    write_next();  // what was queued just before (a last answer), as far as the socket takes it
    if (state_ == State::kClosed) return;  // the write failed, and closed the connection
  }
  state_ = State::kClosed;
  std::error_code ignored;
  handshake_deadline_.cancel();
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
  write_queue_.clear();  // in_flight_ stays until its aborted write completes
  bulk_queue_.clear();
  queued_bytes_ = 0;
  held_until_auth_.clear();
  listener_.on_closed(shared_from_this(), reason);
}

void PeerConnection::finish(const std::string& reason) {
  if (state_ == State::kClosed || finishing_) return;
  if (state_ != State::kOpen) return close(reason);
  finishing_ = true;
  finish_reason_ = reason;
  for (const Frame& f : bulk_queue_) dequeued(f);
  bulk_queue_.clear();
  write_next();
}

// finish(): once nothing is left to write, our half of the stream ends (after those bytes).
void PeerConnection::half_close_if_done() {
  if (!finishing_ || half_closed_ || writing_ || !write_queue_.empty() || in_flight_.size() != 0) {
    return;
  }
  half_closed_ = true;
  std::error_code ec;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_send, ec);
  if (ec) close(finish_reason_ + " (" + ec.message() + ")");
}

void PeerConnection::read_more() {
  if (authenticated() && read_buf_.size() < kReadBufferBytes) read_buf_.resize(kReadBufferBytes);
  if (read_begin_ == read_end_) {
    read_begin_ = read_end_ = 0;
  } else if (read_begin_ > 0) {  // keep the start of the next frame at the front
    std::memmove(read_buf_.data(), read_buf_.data() + read_begin_, read_end_ - read_begin_);
    read_end_ -= read_begin_;
    read_begin_ = 0;
  }
  if (tls_) return tls_read_more();
  auto self = shared_from_this();
  socket_.async_read_some(
      asio::buffer(read_buf_.data() + read_end_, read_buf_.size() - read_end_),
      [self](std::error_code ec, std::size_t n) {
        if (ec) {
          bool in_frame = self->read_end_ > self->read_begin_;
          if (ec == asio::error::eof && !in_frame) return self->close("connection closed by peer");
          return self->close(in_frame ? "connection lost in a frame: " + ec.message()
                                      : ec.message());
        }
        self->read_end_ += n;
        self->parse_frames();
      });
}

// Dispatches every complete frame in the read buffer, then reads more (into the buffer, or a
// large body straight into its own buffer).
void PeerConnection::parse_frames() {
  while (!closed()) {
    if (reads_held()) {
      reads_paused_ = true;  // resume_reads_if_drained() goes on from here
      return;
    }
    const std::size_t available = read_end_ - read_begin_;
    if (available < kFrameHeaderSize) return read_more();
    const std::uint32_t limit = authenticated() ? params_.max_frame_bytes : kHandshakeMaxBody;
    auto header = decode_header(
        std::span<const std::uint8_t, kFrameHeaderSize>(read_buf_.data() + read_begin_,
                                                        kFrameHeaderSize),
        limit);
    if (!header) return close("refused frame: " + header.error());
    const std::size_t frame = kFrameHeaderSize + header->length;
    if (available >= frame) {
      std::span<const std::uint8_t> body(read_buf_.data() + read_begin_ + kFrameHeaderSize,
                                         header->length);
      read_begin_ += frame;
      dispatch(*header, body);  // read_buf_ is not touched until read_more()
      continue;
    }
    const bool task_message = header->type == static_cast<std::uint16_t>(MsgType::kTaskMessage);
    if (frame <= read_buf_.size() ||
        (task_message && available < kFrameHeaderSize + kTaskMessageHead)) {
      return read_more();  // the rest comes into the buffer
    }
    return read_large_body(*header);
  }
}

void PeerConnection::dispatch(const FrameHeader& header, std::span<const std::uint8_t> body) {
  if (finishing_) return;  // read only to reach the end of the peer's stream
  if (authenticated()) listener_.on_frame_received(header.type, kFrameHeaderSize + body.size());
  if (authenticated() && header.type == static_cast<std::uint16_t>(MsgType::kMigrationChunk)) {
    auto chunk = decode_chunk_view(body);
    if (!chunk) return close("refused MigrationChunk frame: " + chunk.error());
    return listener_.on_chunk(shared_from_this(), *chunk);
  }
  auto msg = decode_body(header.type, body);
  if (!msg) {
    return close("refused " + std::string(to_string(static_cast<MsgType>(header.type))) +
                 " frame: " + msg.error());
  }
  handle(std::move(*msg));
}

// A body larger than the read buffer (only after the handshake: the limit before it is small).
// What the buffer holds of it is copied over; the rest is read in place.
void PeerConnection::read_large_body(const FrameHeader& header) {
  read_begin_ += kFrameHeaderSize;
  std::span<const std::uint8_t> have(read_buf_.data() + read_begin_, read_end_ - read_begin_);
  read_begin_ = read_end_ = 0;
  std::span<std::uint8_t> into;
  if (header.type == static_cast<std::uint16_t>(MsgType::kMigrationChunk)) {
    chunk_body_ = BufferPool::shared().take(header.length);
    into = chunk_body_->bytes();
  } else if (header.type == static_cast<std::uint16_t>(MsgType::kTaskMessage)) {
    auto head = decode_task_message_head(have.first(kTaskMessageHead), header.length);
    if (!head) return close("refused TaskMessage frame: " + head.error());
    large_message_ = std::move(*head);
    have = have.subspan(kTaskMessageHead);
    large_message_.payload.resize(header.length - kTaskMessageHead);
    into = large_message_.payload;
  } else {
    body_buf_.resize(header.length);
    into = body_buf_;
  }
  std::memcpy(into.data(), have.data(), have.size());
  auto self = shared_from_this();
  if (tls_) return tls_fill(into.subspan(have.size()), header);
  asio::async_read(socket_, asio::buffer(into.data() + have.size(), into.size() - have.size()),
                   [self, header](std::error_code ec, std::size_t) {
                     if (ec) return self->close("connection lost in a frame body: " + ec.message());
                     self->on_large_body(header);
                     self->parse_frames();
                   });
}

void PeerConnection::on_large_body(const FrameHeader& header) {
  if (finishing_) {
    chunk_body_.reset();
    return;
  }
  if (header.type == static_cast<std::uint16_t>(MsgType::kMigrationChunk)) {
    BufferPool::Ptr body = std::move(chunk_body_);
    auto chunk = decode_chunk_view(body->bytes());
    if (!chunk) return close("refused MigrationChunk frame: " + chunk.error());
    chunk->owner = std::move(body);
    return listener_.on_chunk(shared_from_this(), *chunk);
  }
  if (header.type == static_cast<std::uint16_t>(MsgType::kTaskMessage)) {
    return handle(WireMessage(std::move(large_message_)));
  }
  dispatch(header, body_buf_);
}

void PeerConnection::handle(WireMessage&& msg) {
  if (state_ != State::kOpen) {
    handle_handshake(std::move(msg));
    return;
  }
  if (std::holds_alternative<Hello>(msg) || std::holds_alternative<HelloAuth>(msg)) {
    close("handshake message after the handshake");
    return;
  }
  listener_.on_message(shared_from_this(), std::move(msg));
}

void PeerConnection::handle_handshake(WireMessage&& msg) {
  if (state_ == State::kAwaitHello) {
    if (auto* hello = std::get_if<Hello>(&msg)) return on_peer_hello(*hello);
    return close(std::string("expected Hello, got ") + to_string(type_of(msg)));
  }
  if (auto* auth = std::get_if<HelloAuth>(&msg)) return on_peer_auth(*auth);
  close(std::string("expected HelloAuth, got ") + to_string(type_of(msg)));
}

// Connector: Hello_c ->, <- Hello_a + Auth_a, Auth_c ->.  Acceptor: the mirror image.
void PeerConnection::on_peer_hello(const Hello& hello) {
  if (auto st = check_hello(hello, params_.cluster); !st) return close("refused hello: " + st.message());
  if (side_ == Side::kConnector && hello.role != PeerRole::kNode) {
    return close("refused hello: a client cannot accept connections");
  }
  if (hello.role == PeerRole::kNode && principal_.role != Role::kMember) {
    return close("refused hello: token '" + principal_.name + "' may not act as a node");
  }
  if (side_ == Side::kAcceptor && hello.role == PeerRole::kNode && params_.tls &&
      params_.tls->members_need_certificates() && !certified_) {
    return close("refused hello: node " + std::to_string(hello.node_id) +
                 " showed the cluster secret but no certificate of the cluster CA "
                 "(cluster.tls_ca); members of this cluster need one");
  }
  peer_hello_ = hello;
  state_ = State::kAwaitAuth;
  if (side_ == Side::kAcceptor) {
    send_now(our_hello_);
    send_now(HelloAuth{handshake_mac(auth_key_, our_hello_, peer_hello_)});
  }
}

void PeerConnection::on_peer_auth(const HelloAuth& auth) {
  if (auto st = verify_auth(auth_key_, peer_hello_, our_hello_, auth); !st) {
    return close("refused authentication: " + st.message());
  }
  if (side_ == Side::kConnector) {
    send_now(HelloAuth{handshake_mac(auth_key_, our_hello_, peer_hello_)});
  }
  state_ = State::kOpen;
  handshake_deadline_.cancel();
  while (!held_until_auth_.empty()) {
    auto& [frame, bulk] = held_until_auth_.front();
    queued(frame);
    (bulk ? bulk_queue_ : write_queue_).push_back(std::move(frame));
    held_until_auth_.pop_front();
  }
  write_next();
  listener_.on_authenticated(shared_from_this());
}

}  // namespace drift
