// A connected loopback socket pair (loopback_pair.h).
#include "tests/bench/raw/loopback_pair.h"

#include <system_error>

namespace drift::bench {

Result<std::unique_ptr<LoopbackPair>> LoopbackPair::open() {
  std::unique_ptr<LoopbackPair> pair(new LoopbackPair());
  std::error_code ec;
  asio::ip::tcp::acceptor acceptor(pair->io_);
  const asio::ip::tcp::endpoint any_port(asio::ip::address_v4::loopback(), 0);
  acceptor.open(any_port.protocol(), ec);
  if (!ec) acceptor.bind(any_port, ec);
  if (!ec) acceptor.listen(1, ec);
  if (!ec) pair->client_.connect(acceptor.local_endpoint(), ec);
  if (!ec) acceptor.accept(pair->server_, ec);
  if (!ec) pair->client_.set_option(asio::ip::tcp::no_delay(true), ec);
  if (!ec) pair->server_.set_option(asio::ip::tcp::no_delay(true), ec);
  if (ec) return Status::error("raw loopback connection on 127.0.0.1: " + ec.message());
  return pair;
}

}  // namespace drift::bench
