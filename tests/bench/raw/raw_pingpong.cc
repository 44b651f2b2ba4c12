// The raw Asio ping-pong baseline (raw_pingpong.h).
#include "tests/bench/raw/raw_pingpong.h"

#include <asio/read.hpp>
#include <asio/write.hpp>
#include <chrono>
#include <thread>
#include <vector>

#include "tests/bench/raw/cpu_pinning.h"

namespace drift::bench {

namespace {

constexpr std::uint64_t kWarmupRounds = 10;

void echo(asio::ip::tcp::socket& socket, std::size_t bytes, std::uint64_t rounds,
          std::error_code& ec) {
  std::vector<std::uint8_t> buffer(bytes);
  for (std::uint64_t r = 0; r < rounds && !ec; ++r) {
    asio::read(socket, asio::buffer(buffer), ec);
    if (!ec) asio::write(socket, asio::buffer(buffer), ec);
  }
}

void ping(asio::ip::tcp::socket& socket, std::vector<std::uint8_t>& buffer, std::uint64_t rounds,
          std::error_code& ec) {
  for (std::uint64_t r = 0; r < rounds && !ec; ++r) {
    asio::write(socket, asio::buffer(buffer), ec);
    if (!ec) asio::read(socket, asio::buffer(buffer), ec);
  }
}

}  // namespace

PingPongTiming pingpong_timing(double seconds, std::uint64_t rounds, std::size_t bytes) {
  PingPongTiming t;
  t.seconds = seconds;
  if (seconds <= 0 || rounds == 0) return t;
  const double n = static_cast<double>(rounds);
  t.rtt_us = seconds / n * 1e6;
  t.throughput_mbps = 2 * n * static_cast<double>(bytes) / seconds / 1e6;
  return t;
}

Result<PingPongTiming> raw_pingpong(LoopbackPair& pair, std::size_t bytes, std::uint64_t rounds,
                                    std::pair<int, int> cpus) {
  std::vector<std::uint8_t> buffer(bytes, 0xa5);
  std::error_code echo_ec, ping_ec;
  (void)pin_this_thread(cpus.first);  // best effort: the figures stay valid unpinned
  std::thread echoer([&] {
    (void)pin_this_thread(cpus.second);
    echo(pair.server(), bytes, kWarmupRounds + rounds, echo_ec);
  });
  ping(pair.client(), buffer, kWarmupRounds, ping_ec);
  const auto start = std::chrono::steady_clock::now();
  ping(pair.client(), buffer, rounds, ping_ec);
  const auto end = std::chrono::steady_clock::now();
  if (ping_ec) pair.client().close();  // unblocks the echoer
  echoer.join();
  (void)pin_this_thread(-1);
  if (ping_ec || echo_ec) {
    return Status::error("raw ping-pong of " + std::to_string(bytes) +
                         "-byte messages: " + (ping_ec ? ping_ec : echo_ec).message());
  }
  return pingpong_timing(std::chrono::duration<double>(end - start).count(), rounds, bytes);
}

}  // namespace drift::bench
