// FrameLink over a real socket pair: messages of every size arrive whole and in order (a large
// TaskMessage's payload and WorkerStateBytes' bytes read straight into their vectors, a large
// message of another type through a body buffer), a frame whose head lies about its length
// closes the link with the reason, and a frame queued just before close() still goes.
#include "sdk/frame_link.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace drift {
namespace {

constexpr std::uint32_t kMaxBody = 64u << 20;

struct Pair {
  asio::io_context io;
  std::shared_ptr<FrameLink> a, b;
  std::vector<WorkerMessage> received;
  std::string errors;
  std::string closed;

  Pair() {
    FrameLink::Socket x(io), y(io);
    asio::local::connect_pair(x, y);
    a = std::make_shared<FrameLink>(std::move(x), kWorkerProtocolVersion, kMaxBody);
    b = std::make_shared<FrameLink>(std::move(y), kWorkerProtocolVersion, kMaxBody);
    a->start({[](Result<WorkerMessage>&&) {}, [](const std::string&) {}});
    b->start({[this](Result<WorkerMessage>&& m) {
                if (m) {
                  received.push_back(std::move(*m));
                } else {
                  errors += m.error();
                }
              },
              [this](const std::string& reason) { closed = reason; }});
  }

  void run_until(std::size_t messages) {
    while (received.size() < messages && closed.empty()) io.run_one();
  }
};

std::vector<std::uint8_t> pattern(std::size_t n, unsigned seed) {
  std::vector<std::uint8_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::uint8_t>(i * 31 + seed);
  return v;
}

TEST(FrameLink, MessagesOfEverySizeArriveWholeAndInOrder) {
  Pair p;
  std::vector<WorkerMessage> sent;
  for (std::size_t size : {std::size_t{0}, std::size_t{100}, std::size_t{65536 - 80},
                           std::size_t{70000}, std::size_t{3} << 20}) {
    TaskMessage m;
    m.from = {7, 1};
    m.to = {7, 2};
    m.seq = size;
    m.payload = pattern(size, 1);
    sent.push_back(m);
    sent.push_back(WorkerStateBytes{StateBytesKind::kCheckpoint, 2, 0, size + 1, pattern(size + 1, 2)});
  }
  WorkerEffects effects;  // no tail vector: a large one goes through a body buffer
  effects.index = 1;
  effects.result = pattern(200000, 3);
  sent.push_back(effects);
  sent.push_back(WorkerStart{});
  for (const WorkerMessage& m : sent) p.a->send(make_frame(encode_worker(m)));
  p.run_until(sent.size());
  EXPECT_EQ(p.errors, "");
  EXPECT_EQ(p.closed, "");
  ASSERT_EQ(p.received.size(), sent.size());
  for (std::size_t i = 0; i < sent.size(); ++i) EXPECT_TRUE(p.received[i] == sent[i]) << i;
}

TEST(FrameLink, AFrameWhoseVectorLengthDisagreesWithItsBodyClosesTheLink) {
  Pair p;
  TaskMessage m;
  m.payload = pattern(100000, 4);
  std::vector<std::uint8_t> frame = encode_worker(m);
  // The payload's length field (the head's last 8 bytes) says one byte more than follows.
  const std::size_t at = kFrameHeaderSize +
                         worker_head_bytes(static_cast<std::uint16_t>(MsgType::kTaskMessage)) - 8;
  frame[at] = static_cast<std::uint8_t>(frame[at] + 1);
  p.a->send(make_frame(std::move(frame)));
  p.run_until(1);
  EXPECT_TRUE(p.received.empty());
  EXPECT_NE(p.closed.find("bad frame: bad TaskMessage body"), std::string::npos) << p.closed;
}

// Frames are written once the thread is done with what it is doing; one queued just before the
// link is closed (a last answer) still goes.
TEST(FrameLink, AFrameQueuedJustBeforeCloseIsStillWritten) {
  Pair p;
  TaskMessage m;
  m.from = {7, 1};
  m.to = {7, 2};
  m.payload = pattern(100, 5);
  p.a->send(make_frame(encode_worker(m)));
  p.a->close("done");
  p.run_until(1);
  ASSERT_EQ(p.received.size(), 1u);
  EXPECT_TRUE(p.received[0] == WorkerMessage{m});
}

}  // namespace
}  // namespace drift
