// What a daemon sends just before it stops reaches its peers (Transport::shutdown,
// PeerConnection::finish): two transports over TLS on real loopback sockets, in one event loop.
// A node that leaves says so in its last frame; losing it made the root take the leave for a death.
#include <gtest/gtest.h>

#include <asio.hpp>

#include <chrono>
#include <vector>

#include "node/net/tls_context.h"
#include "node/net/transport.h"
#include "protocol/frame.h"

namespace drift {
namespace {

using namespace std::chrono_literals;

constexpr std::uint32_t kReceiver = 1;

class TransportShutdown : public ::testing::Test {
 protected:
  void SetUp() override {
    auto tls = TlsContext::member(std::vector<std::uint8_t>(32, 7));
    ASSERT_TRUE(tls) << tls.error();
    params_.handshake.cluster = "shutdown-test";
    params_.handshake.secret = std::vector<std::uint8_t>(32, 7);
    params_.handshake.tls = *tls;
    // A port the system just gave out; the receiver listens on it.
    asio::ip::tcp::acceptor probe(io_, {asio::ip::make_address("127.0.0.1"), 0});
    receiver_at_ = Endpoint{"127.0.0.1", probe.local_endpoint().port()};
    probe.close();
    receiver_ = std::make_unique<Transport>(io_, params_, hello(kReceiver, receiver_at_.to_string()));
    sender_ = std::make_unique<Transport>(io_, params_, hello(2, "127.0.0.1:1"));
    receiver_->on_message([this](const ConnectionPtr&, WireMessage&& msg) {
      if (auto* hb = std::get_if<Heartbeat>(&msg)) heartbeats_.push_back(hb->sequence);
      if (auto* m = std::get_if<TaskMessage>(&msg)) payload_bytes_ += m->payload.size();
    });
    ASSERT_TRUE(receiver_->listen(receiver_at_).is_ok());
  }

  void TearDown() override {
    int done = 0;
    sender_->shutdown(100ms, [&] { ++done; });
    receiver_->shutdown(100ms, [&] { ++done; });
    run_until([&] { return done == 2; });
  }

  Hello hello(std::uint32_t id, const std::string& address) {
    Hello h;
    h.cluster = params_.handshake.cluster;
    h.protocol_version = kProtocolVersion;
    h.role = PeerRole::kNode;
    h.node_id = id;
    h.incarnation = 1;
    h.name = "node" + std::to_string(id);
    h.listen_address = address;
    return h;
  }

  void send_heartbeat(std::uint64_t sequence) {
    Heartbeat hb;
    hb.from = 2;
    hb.incarnation = 1;
    hb.sequence = sequence;
    sender_->send(kReceiver, receiver_at_, hb);
  }

  // Runs the loop until `done` holds, for 10 s at most.
  template <class Pred>
  bool run_until(Pred done) {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!done() && std::chrono::steady_clock::now() < deadline) {
      io_.restart();
      io_.run_for(5ms);
    }
    return done();
  }

  asio::io_context io_;
  Transport::Params params_;
  Endpoint receiver_at_;
  std::unique_ptr<Transport> receiver_, sender_;
  std::vector<std::uint64_t> heartbeats_;
  std::size_t payload_bytes_ = 0;
};

// The sender's last frame and the end of its stream arrive together: the receiver handles the
// frame before it closes the connection.
TEST_F(TransportShutdown, TheFrameSentJustBeforeShutdownArrives) {
  send_heartbeat(1);
  ASSERT_TRUE(run_until([&] { return heartbeats_.size() == 1; })) << "the connection came up";
  bool done = false;
  send_heartbeat(2);
  sender_->shutdown(2s, [&] { done = true; });
  ASSERT_TRUE(run_until([&] { return done; })) << "the sender's shutdown finished";
  EXPECT_TRUE(run_until([&] { return heartbeats_.size() == 2; }));
  EXPECT_EQ(heartbeats_, (std::vector<std::uint64_t>{1, 2}));
}

// More than the socket takes at once is queued when the sender stops: all of it is sent before
// the connection ends.
TEST_F(TransportShutdown, WhatIsQueuedBeyondTheSocketsBufferIsSentBeforeTheEnd) {
  send_heartbeat(1);
  ASSERT_TRUE(run_until([&] { return heartbeats_.size() == 1; }));
  constexpr std::size_t kMessages = 16, kBytes = 1u << 20;
  for (std::size_t i = 0; i < kMessages; ++i) {
    TaskMessage m;
    m.payload.assign(kBytes, static_cast<std::uint8_t>(i));
    sender_->send(kReceiver, receiver_at_, m);
  }
  send_heartbeat(2);
  bool done = false;
  sender_->shutdown(5s, [&] { done = true; });
  ASSERT_TRUE(run_until([&] { return done; }));
  EXPECT_TRUE(run_until([&] { return heartbeats_.size() == 2; }));
  EXPECT_EQ(payload_bytes_, kMessages * kBytes);
  EXPECT_EQ(heartbeats_, (std::vector<std::uint64_t>{1, 2}));
}

// A peer whose network thread does not run never ends its half of the stream: the shutdown waits
// for it no longer than asked.
TEST_F(TransportShutdown, APeerThatDoesNotAnswerIsClosedAfterTheLinger) {
  asio::io_context stuck_io;
  Transport stuck(stuck_io, params_, hello(3, "127.0.0.1:1"));
  Heartbeat hb;
  hb.from = 3;
  hb.incarnation = 1;
  hb.sequence = 1;
  stuck.send(kReceiver, receiver_at_, hb);
  const bool up = run_until([&] {
    stuck_io.restart();
    stuck_io.run_for(5ms);
    return heartbeats_.size() == 1;
  });
  ASSERT_TRUE(up) << "the connection came up";
  bool done = false;
  const auto start = std::chrono::steady_clock::now();
  receiver_->shutdown(200ms, [&] { done = true; });
  ASSERT_TRUE(run_until([&] { return done; }));
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_GE(took, 200ms) << "it waited for the peer's end";
  EXPECT_LT(took, 5s);
  bool stuck_done = false;
  stuck.shutdown(100ms, [&] { stuck_done = true; });
  EXPECT_TRUE(run_until([&] {
    stuck_io.restart();
    stuck_io.run_for(5ms);
    return stuck_done;
  }));
}

}  // namespace
}  // namespace drift
