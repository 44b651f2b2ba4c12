// The raw TCP transfer baseline (raw_transfer.h).
#include "tests/bench/raw/raw_transfer.h"

#include <asio/read.hpp>
#include <asio/write.hpp>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

namespace drift::bench {

namespace {

// Says it is about to read, reads everything, then acknowledges with one byte.
void receive_all(asio::ip::tcp::socket& socket, std::vector<std::uint8_t>& buffer,
                 std::atomic<bool>& reading, std::error_code& ec) {
  reading.store(true, std::memory_order_release);
  asio::read(socket, asio::buffer(buffer), ec);
  if (ec) return;
  const std::uint8_t ack = 1;
  asio::write(socket, asio::buffer(&ack, 1), ec);
}

}  // namespace

Result<double> raw_transfer_seconds(LoopbackPair& pair, std::size_t bytes) {
  std::vector<std::uint8_t> out(bytes, 0x5a);
  std::vector<std::uint8_t> in(bytes);
  std::error_code receive_ec, send_ec;
  std::atomic<bool> reading{false};
  std::thread receiver([&] { receive_all(pair.server(), in, reading, receive_ec); });
  while (!reading.load(std::memory_order_acquire)) std::this_thread::yield();  // not timed
  const auto start = std::chrono::steady_clock::now();
  asio::write(pair.client(), asio::buffer(out), send_ec);
  std::uint8_t ack = 0;
  if (!send_ec) asio::read(pair.client(), asio::buffer(&ack, 1), send_ec);
  const auto end = std::chrono::steady_clock::now();
  receiver.join();
  if (send_ec || receive_ec) {
    return Status::error("raw transfer of " + std::to_string(bytes) +
                         " bytes: " + (send_ec ? send_ec : receive_ec).message());
  }
  return std::chrono::duration<double>(end - start).count();
}

}  // namespace drift::bench
