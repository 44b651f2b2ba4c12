// The raw Asio baselines run and give sane figures on a loopback pair.
#include <gtest/gtest.h>

#include "tests/bench/raw/cpu_pinning.h"
#include "tests/bench/raw/loopback_pair.h"
#include "tests/bench/raw/raw_event_pingpong.h"
#include "tests/bench/raw/raw_pingpong.h"
#include "tests/bench/raw/raw_transfer.h"

namespace drift::bench {
namespace {

TEST(RawBaselines, TransferAndPingPong) {
  auto pair = LoopbackPair::open();
  ASSERT_TRUE(pair) << pair.error();
  for (std::size_t bytes : {std::size_t{1}, std::size_t{1} << 20}) {
    auto s = raw_transfer_seconds(**pair, bytes);
    ASSERT_TRUE(s) << s.error();
    EXPECT_GT(*s, 0);
  }
  auto t = raw_pingpong(**pair, 4096, 20);
  ASSERT_TRUE(t) << t.error();
  EXPECT_GT(t->rtt_us, 0);
  EXPECT_NEAR(t->throughput_mbps, 2 * 20 * 4096 / t->seconds / 1e6, 1e-6);
  auto again = raw_transfer_seconds(**pair, 100);  // the connection is still in step
  EXPECT_TRUE(again) << again.error();
}

TEST(RawBaselines, EventLoopPingPong) {
  for (std::size_t payload : {std::size_t{64}, std::size_t{1} << 20}) {
    auto t = raw_event_pingpong(payload + 57, payload, 20);
    ASSERT_TRUE(t) << t.error();
    EXPECT_GT(t->rtt_us, 0);
    EXPECT_NEAR(t->throughput_mbps, 2 * 20 * payload / t->seconds / 1e6, 1e-6);
  }
  auto pinned = raw_event_pingpong(121, 64, 20, two_cores().value_or(std::pair{-1, -1}));
  EXPECT_TRUE(pinned) << pinned.error();
  EXPECT_FALSE(raw_event_pingpong(12, 0, 20));  // no body: not a frame
}

TEST(RawBaselines, TimingFigures) {
  const PingPongTiming t = pingpong_timing(2.0, 1000, 1000000);
  EXPECT_DOUBLE_EQ(t.rtt_us, 2000);
  EXPECT_DOUBLE_EQ(t.throughput_mbps, 1000);
  EXPECT_EQ(pingpong_timing(0, 10, 10).rtt_us, 0);
}

TEST(RawBaselines, PeerGoneIsAnError) {
  auto pair = LoopbackPair::open();
  ASSERT_TRUE(pair) << pair.error();
  (*pair)->server().close();
  EXPECT_FALSE(raw_transfer_seconds(**pair, 1 << 20));
}

}  // namespace
}  // namespace drift::bench
