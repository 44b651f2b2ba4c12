// The raw event-loop ping-pong baseline (raw_event_pingpong.h).
#include "tests/bench/raw/raw_event_pingpong.h"

#include <array>
#include <asio/connect.hpp>
#include <asio/io_context.hpp>
#include <asio/ip/tcp.hpp>
#include <asio/read.hpp>
#include <asio/write.hpp>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "tests/bench/raw/cpu_pinning.h"

namespace drift::bench {

namespace {

using asio::ip::tcp;
using Clock = std::chrono::steady_clock;

constexpr std::uint64_t kEventWarmupRounds = 10;
constexpr std::size_t kHeaderBytes = 12;  // as drift's: magic, version, type, body length

// One end: reads a frame (header, then the body it announces) and answers with a frame of its
// own, `rounds` times. The pinger sends first and notes when its measured rounds begin and end.
class Endpoint {
 public:
  Endpoint(tcp::socket socket, std::size_t frame_bytes, std::uint64_t rounds, bool pinger)
      : socket_(std::move(socket)), frame_(frame_bytes), rounds_(rounds), pinger_(pinger) {
    const auto body = static_cast<std::uint32_t>(frame_bytes - kHeaderBytes);
    for (int i = 0; i < 4; ++i) frame_[8 + i] = static_cast<std::uint8_t>(body >> (8 * i));
  }

  void start() {
    if (pinger_) write();
    read_header();
  }
  std::error_code error() const { return error_; }
  Clock::time_point began() const { return began_; }
  Clock::time_point ended() const { return ended_; }

 private:
  void write() {
    asio::async_write(socket_, asio::buffer(frame_), [this](std::error_code ec, std::size_t) {
      if (ec) fail(ec);
    });
  }
  void read_header() {
    asio::async_read(socket_, asio::buffer(header_), [this](std::error_code ec, std::size_t) {
      if (ec) return fail(ec);
      std::uint32_t body = 0;
      for (int i = 3; i >= 0; --i) body = (body << 8) | header_[8 + i];
      if (body + kHeaderBytes > frame_.size()) return fail(asio::error::message_size);
      asio::async_read(socket_, asio::buffer(frame_.data() + kHeaderBytes, body),
                       [this](std::error_code e, std::size_t) {
                         if (e) return fail(e);
                         on_frame();
                       });
    });
  }
  void on_frame() {
    ++done_;
    if (pinger_ && done_ == kEventWarmupRounds) began_ = Clock::now();
    if (pinger_ && done_ == rounds_) {
      ended_ = Clock::now();
      return;
    }
    write();
    if (done_ < rounds_) read_header();
  }
  void fail(std::error_code ec) {
    if (!error_) error_ = ec;
    std::error_code ignored;
    socket_.close(ignored);
  }

  tcp::socket socket_;
  std::array<std::uint8_t, kHeaderBytes> header_{};
  std::vector<std::uint8_t> frame_;
  const std::uint64_t rounds_;  // warm-up rounds included
  const bool pinger_;
  std::uint64_t done_ = 0;
  std::error_code error_;
  Clock::time_point began_, ended_;
};

Status connect_pair(tcp::socket& a, tcp::socket& b) {
  std::error_code ec;
  tcp::acceptor acceptor(b.get_executor());
  const tcp::endpoint any_port(asio::ip::address_v4::loopback(), 0);
  acceptor.open(any_port.protocol(), ec);
  if (!ec) acceptor.bind(any_port, ec);
  if (!ec) acceptor.listen(1, ec);
  if (!ec) a.connect(acceptor.local_endpoint(), ec);
  if (!ec) acceptor.accept(b, ec);
  if (!ec) a.set_option(tcp::no_delay(true), ec);
  if (!ec) b.set_option(tcp::no_delay(true), ec);
  if (ec) return Status::error("raw loopback connection on 127.0.0.1: " + ec.message());
  return Status::ok();
}

}  // namespace

Result<PingPongTiming> raw_event_pingpong(std::size_t frame_bytes, std::size_t payload_bytes,
                                          std::uint64_t rounds, std::pair<int, int> cpus) {
  if (frame_bytes <= kHeaderBytes || rounds == 0) {
    return Status::error("raw event ping-pong: frames of " + std::to_string(frame_bytes) +
                         " bytes, " + std::to_string(rounds) + " rounds");
  }
  asio::io_context ping_io, echo_io;
  tcp::socket ping_socket(ping_io), echo_socket(echo_io);
  if (Status s = connect_pair(ping_socket, echo_socket); !s) return s;
  const std::uint64_t total = kEventWarmupRounds + rounds;
  Endpoint pinger(std::move(ping_socket), frame_bytes, total, true);
  Endpoint echoer(std::move(echo_socket), frame_bytes, total, false);
  (void)pin_this_thread(cpus.first);  // best effort: the figures stay valid unpinned
  echoer.start();
  std::thread echo_thread([&] {
    (void)pin_this_thread(cpus.second);
    echo_io.run();
  });
  pinger.start();
  ping_io.run();
  if (pinger.error()) echo_io.stop();  // the echoer may wait for a frame that never comes
  echo_thread.join();
  (void)pin_this_thread(-1);
  if (std::error_code ec = pinger.error() ? pinger.error() : echoer.error()) {
    return Status::error("raw event ping-pong of " + std::to_string(frame_bytes) +
                         "-byte frames: " + ec.message());
  }
  const double seconds = std::chrono::duration<double>(pinger.ended() - pinger.began()).count();
  return pingpong_timing(seconds, rounds, payload_bytes);
}

}  // namespace drift::bench
