// A blocking TCP connection whose every operation has a deadline (Asio's blocking_tcp_client
// pattern: async operations run on a private io_context for at most the time left), over TLS 1.3
// when given a TLS context (node/net/tls_context.h: the daemon and we prove the same key).
// Used by driftctl and the integration tests; not thread-safe. After a timeout the socket is
// closed.
#pragma once

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/ssl/stream.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <system_error>

#include "node/net/endpoint.h"
#include "node/net/tls_context.h"
#include <drift/status.h>

namespace drift::ctl {

using Clock = std::chrono::steady_clock;

// Now + `seconds`; none (time_point::max()) for 0 or less, or beyond a year, which keeps the
// cast defined.
Clock::time_point deadline_after(double seconds);

class TcpStream {
 public:
  // Resolves `to`, connects and, with `tls`, runs the TLS handshake; the error names the address
  // and the reason.
  static Result<std::unique_ptr<TcpStream>> connect(const Endpoint& to, Clock::time_point deadline,
                                                    std::shared_ptr<TlsContext> tls);

  // Writes all of `bytes`, or fails (asio::error::timed_out when the deadline passes).
  std::error_code write_all(std::span<const std::uint8_t> bytes, Clock::time_point deadline);
  // Reads exactly bytes.size() bytes; asio::error::eof when the peer closed cleanly.
  std::error_code read_exact(std::span<std::uint8_t> bytes, Clock::time_point deadline);

  // True once a read saw the peer close or reset the connection.
  bool closed_by_peer() const { return closed_by_peer_; }
  // "127.0.0.1:54321": our side, as the daemon sees (and logs) us.
  std::string local_address() const;
  void close();

 private:
  explicit TcpStream(std::shared_ptr<TlsContext> tls);
  std::error_code run_until(Clock::time_point deadline, std::error_code& result);
  asio::ip::tcp::socket& socket() { return tls_ ? tls_->next_layer() : *plain_; }
  const asio::ip::tcp::socket& socket() const { return tls_ ? tls_->next_layer() : *plain_; }
  // Runs `op` on the stream: the TLS one, or the plain socket.
  template <typename Op>
  void on_stream(Op&& op) {
    if (tls_) {
      op(*tls_);
    } else {
      op(*plain_);
    }
  }

  std::unique_ptr<asio::io_context> io_;
  std::shared_ptr<TlsContext> context_;  // null: plaintext (tests only)
  std::optional<asio::ip::tcp::socket> plain_;
  std::optional<asio::ssl::stream<asio::ip::tcp::socket>> tls_;
  bool closed_by_peer_ = false;
};

// "timed out" / "Connection refused" / ...: the text for an error from TcpStream.
std::string describe(const std::error_code& ec);

}  // namespace drift::ctl
