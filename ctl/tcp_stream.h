// A blocking TCP connection whose every operation has a deadline (Asio's blocking_tcp_client
// pattern: async operations run on a private io_context for at most the time left). Used by
// driftctl and the integration tests; not thread-safe. After a timeout the socket is closed.
#pragma once

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <system_error>

#include "node/net/endpoint.h"
#include <drift/status.h>

namespace drift::ctl {

using Clock = std::chrono::steady_clock;

class TcpStream {
 public:
  // Resolves `to` and connects; the error names the address and the reason.
  static Result<std::unique_ptr<TcpStream>> connect(const Endpoint& to, Clock::time_point deadline);

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
  TcpStream();
  std::error_code run_until(Clock::time_point deadline, std::error_code& result);

  std::unique_ptr<asio::io_context> io_;
  asio::ip::tcp::socket socket_;
  bool closed_by_peer_ = false;
};

// "timed out" / "Connection refused" / ...: the text for an error from TcpStream.
std::string describe(const std::error_code& ec);

}  // namespace drift::ctl
