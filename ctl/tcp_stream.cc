#include "ctl/tcp_stream.h"

#include <asio/connect.hpp>
#include <asio/read.hpp>
#include <asio/write.hpp>

namespace drift::ctl {

namespace {

bool is_peer_close(const std::error_code& ec) {
  // A TLS peer that closes without close_notify (as daemons do) ends with stream_truncated.
  return ec == asio::error::eof || ec == asio::error::connection_reset ||
         ec == asio::error::broken_pipe || ec == asio::ssl::error::stream_truncated;
}

}  // namespace

Clock::time_point deadline_after(double seconds) {
  constexpr double kYearS = 365.0 * 24 * 3600;
  if (!(seconds > 0) || seconds > kYearS) return Clock::time_point::max();
  return Clock::now() + std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
}

TcpStream::TcpStream(std::shared_ptr<TlsContext> tls)
    : io_(std::make_unique<asio::io_context>()), context_(std::move(tls)) {
  if (context_) {
    tls_.emplace(*io_, context_->ssl());
  } else {
    plain_.emplace(*io_);
  }
}

Result<std::unique_ptr<TcpStream>> TcpStream::connect(const Endpoint& to,
                                                      Clock::time_point deadline,
                                                      std::shared_ptr<TlsContext> tls) {
  std::unique_ptr<TcpStream> stream(new TcpStream(std::move(tls)));
  asio::ip::tcp::resolver resolver(*stream->io_);
  std::error_code ec;
  const auto addresses = resolver.resolve(to.host, std::to_string(to.port), ec);
  if (ec) return Status::error("cannot resolve " + to.to_string() + ": " + ec.message());
  std::error_code result = asio::error::would_block;
  asio::async_connect(
      stream->socket(), addresses,
      [&](const std::error_code& e, const asio::ip::tcp::endpoint&) { result = e; });
  if (auto timed_out = stream->run_until(deadline, result)) result = timed_out;
  if (result) return Status::error("cannot connect to " + to.to_string() + ": " + describe(result));
  stream->socket().set_option(asio::ip::tcp::no_delay(true), ec);
  if (stream->tls_) {
    result = asio::error::would_block;
    stream->tls_->async_handshake(asio::ssl::stream_base::client,
                                  [&](const std::error_code& e) { result = e; });
    if (auto timed_out = stream->run_until(deadline, result)) result = timed_out;
    if (result == asio::error::timed_out) {
      return Status::error(to.to_string() + " did not finish the TLS handshake in time (is "
                                            "it overloaded, paused or stopping?)");
    }
    if (is_peer_close(result)) {
      return Status::error(to.to_string() + " closed the connection during the TLS handshake "
                                            "(it is stopping, or has too many connections "
                                            "from this address in their handshake)");
    }
    if (result) {
      return Status::error(to.to_string() + " refused the TLS handshake (wrong secret?): " +
                           describe(result));
    }
  }
  return stream;
}

std::error_code TcpStream::write_all(std::span<const std::uint8_t> bytes,
                                     Clock::time_point deadline) {
  std::error_code result = asio::error::would_block;
  on_stream([&](auto& stream) {
    asio::async_write(stream, asio::buffer(bytes.data(), bytes.size()),
                      [&](const std::error_code& e, std::size_t) { result = e; });
  });
  if (auto timed_out = run_until(deadline, result)) return timed_out;
  if (is_peer_close(result)) closed_by_peer_ = true;
  return result;
}

std::error_code TcpStream::read_exact(std::span<std::uint8_t> bytes, Clock::time_point deadline) {
  std::error_code result = asio::error::would_block;
  on_stream([&](auto& stream) {
    asio::async_read(stream, asio::buffer(bytes.data(), bytes.size()),
                     [&](const std::error_code& e, std::size_t) { result = e; });
  });
  if (auto timed_out = run_until(deadline, result)) return timed_out;
  if (is_peer_close(result)) closed_by_peer_ = true;
  return result;
}

// Runs the pending operation until it completes or the deadline passes; in the latter case the
// socket is closed (which completes the operation with operation_aborted) and timed_out returned.
std::error_code TcpStream::run_until(Clock::time_point deadline, std::error_code& result) {
  io_->restart();
  io_->run_until(deadline);
  if (io_->stopped() && result != asio::error::would_block) return {};
  std::error_code ignored;
  socket().close(ignored);
  io_->restart();
  io_->run();
  return asio::error::timed_out;
}

std::string TcpStream::local_address() const {
  std::error_code ec;
  const auto ep = socket().local_endpoint(ec);
  if (ec) return "?";
  return Endpoint{ep.address().to_string(), ep.port()}.to_string();
}

void TcpStream::close() {
  std::error_code ignored;
  socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  socket().close(ignored);
}

std::string describe(const std::error_code& ec) {
  if (ec == asio::error::timed_out) return "timed out";
  if (ec == asio::error::eof || ec == asio::ssl::error::stream_truncated) {
    return "connection closed by the peer";
  }
  return ec.message();
}

}  // namespace drift::ctl
