// Two connected TCP sockets over 127.0.0.1 (an ephemeral port, Nagle off), for the raw Asio
// baselines the benchmark compares drift with. Blocking use only; each socket may be driven by
// its own thread.
#pragma once

#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <memory>

#include <drift/status.h>

namespace drift::bench {

class LoopbackPair {
 public:
  static Result<std::unique_ptr<LoopbackPair>> open();

  asio::ip::tcp::socket& client() { return client_; }
  asio::ip::tcp::socket& server() { return server_; }

 private:
  LoopbackPair() : client_(io_), server_(io_) {}

  asio::io_context io_;
  asio::ip::tcp::socket client_;
  asio::ip::tcp::socket server_;
};

}  // namespace drift::bench
