#include "node/peer_connection.h"

#include <spdlog/spdlog.h>

#include "protocol/codec.h"
#include "protocol/handshake.h"

namespace drift {

PeerConnection::PeerConnection(asio::ip::tcp::socket socket, Side side,
                               const HandshakeParams& params, ConnectionListener& listener)
    : socket_(std::move(socket)),
      handshake_deadline_(socket_.get_executor()),
      side_(side),
      params_(params),
      listener_(listener) {
  std::error_code ec;
  auto ep = socket_.remote_endpoint(ec);
  remote_ = ec ? std::string("?") : ep.address().to_string() + ":" + std::to_string(ep.port());
  socket_.set_option(asio::ip::tcp::no_delay(true), ec);
}

std::string PeerConnection::describe() const {
  if (state_ == State::kOpen || state_ == State::kClosed) {
    if (peer_hello_.role == PeerRole::kNode && peer_hello_.node_id != 0) {
      return "node " + std::to_string(peer_hello_.node_id) + " (" + remote_ + ")";
    }
    if (peer_hello_.role == PeerRole::kClient) return "client " + remote_;
  }
  return "peer " + remote_;
}

void PeerConnection::start(Hello ours) {
  ours.nonce = random_nonce();
  our_hello_ = std::move(ours);
  auto self = shared_from_this();
  handshake_deadline_.expires_after(params_.handshake_timeout);
  handshake_deadline_.async_wait([self](std::error_code ec) {
    if (!ec && !self->authenticated()) self->close("handshake not completed in time");
  });
  if (side_ == Side::kConnector) send_now(our_hello_);
  read_header();
}

void PeerConnection::send(Frame frame, bool bulk) {
  if (state_ == State::kClosed) return;
  if (state_ != State::kOpen) {
    held_until_auth_.emplace_back(std::move(frame), bulk);
    return;
  }
  (bulk ? bulk_queue_ : write_queue_).push_back(std::move(frame));
  write_next();
}

void PeerConnection::send(const WireMessage& msg) { send(make_frame(encode(msg))); }

void PeerConnection::send_now(const WireMessage& msg) {
  write_queue_.push_back(make_frame(encode(msg)));
  write_next();
}

void PeerConnection::write_next() {
  if (writing_ || state_ == State::kClosed) return;
  auto& queue = write_queue_.empty() ? bulk_queue_ : write_queue_;
  if (queue.empty()) return;
  in_flight_ = std::move(queue.front());
  queue.pop_front();
  writing_ = true;
  auto self = shared_from_this();
  std::array<asio::const_buffer, 2> buffers{asio::buffer(*in_flight_.head),
                                            asio::buffer(in_flight_.tail.data(),
                                                         in_flight_.tail.size())};
  asio::async_write(socket_, buffers, [self](std::error_code ec, std::size_t) {
    self->writing_ = false;
    self->in_flight_ = Frame{};
    if (self->closed()) return;
    if (ec) {
      self->close("write failed: " + ec.message());
      return;
    }
    self->write_next();
  });
}

void PeerConnection::close(const std::string& reason) {
  if (state_ == State::kClosed) return;
  state_ = State::kClosed;
  std::error_code ignored;
  handshake_deadline_.cancel();
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
  write_queue_.clear();  // in_flight_ stays until its aborted write completes
  bulk_queue_.clear();
  held_until_auth_.clear();
  listener_.on_closed(shared_from_this(), reason);
}

void PeerConnection::read_header() {
  auto self = shared_from_this();
  asio::async_read(socket_, asio::buffer(header_buf_), [self](std::error_code ec, std::size_t) {
    if (ec) {
      self->close(ec == asio::error::eof ? "connection closed by peer" : ec.message());
      return;
    }
    std::uint32_t limit = self->authenticated() ? self->params_.max_frame_bytes : kHandshakeMaxBody;
    auto header = decode_header(self->header_buf_, limit);
    if (!header) {
      self->close("refused frame: " + header.error());
      return;
    }
    self->read_body(*header);
  });
}

void PeerConnection::read_body(FrameHeader header) {
  body_buf_.resize(header.length);
  auto self = shared_from_this();
  asio::async_read(socket_, asio::buffer(body_buf_), [self, header](std::error_code ec,
                                                                     std::size_t) {
    if (ec) {
      self->close("connection lost in a frame body: " + ec.message());
      return;
    }
    if (self->authenticated() && header.type == static_cast<std::uint16_t>(MsgType::kMigrationChunk)) {
      auto chunk = decode_chunk_view(self->body_buf_);
      if (!chunk) return self->close("refused MigrationChunk frame: " + chunk.error());
      self->listener_.on_chunk(self, *chunk);
      if (!self->closed()) self->read_header();
      return;
    }
    auto msg = decode_body(header.type, self->body_buf_);
    if (!msg) {
      self->close("refused " + std::string(to_string(static_cast<MsgType>(header.type))) +
                  " frame: " + msg.error());
      return;
    }
    self->handle(std::move(*msg));
    if (!self->closed()) self->read_header();
  });
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
  peer_hello_ = hello;
  state_ = State::kAwaitAuth;
  if (side_ == Side::kAcceptor) {
    send_now(our_hello_);
    send_now(HelloAuth{handshake_mac(params_.secret, our_hello_, peer_hello_)});
  }
}

void PeerConnection::on_peer_auth(const HelloAuth& auth) {
  if (auto st = verify_auth(params_.secret, peer_hello_, our_hello_, auth); !st) {
    return close("refused authentication: " + st.message());
  }
  if (side_ == Side::kConnector) {
    send_now(HelloAuth{handshake_mac(params_.secret, our_hello_, peer_hello_)});
  }
  state_ = State::kOpen;
  handshake_deadline_.cancel();
  while (!held_until_auth_.empty()) {
    auto& [frame, bulk] = held_until_auth_.front();
    (bulk ? bulk_queue_ : write_queue_).push_back(std::move(frame));
    held_until_auth_.pop_front();
  }
  write_next();
  listener_.on_authenticated(shared_from_this());
}

}  // namespace drift
