// UnknownPeerQueue: messages for a node not met yet wait in order, within bounds, and expire.
#include "node/net/unknown_peer_queue.h"

#include <gtest/gtest.h>

namespace drift {
namespace {

using QueueClock = UnknownPeerQueue::Clock;
const QueueClock::time_point kQueueT0{};

WireMessage message(std::uint64_t seq) {
  TaskMessage m;
  m.seq = seq;
  return m;
}

TEST(UnknownPeerQueue, MessagesWaitInOrderUntilTheNodeJoins) {
  UnknownPeerQueue q;
  EXPECT_TRUE(q.hold(3, message(1), 100, kQueueT0));
  EXPECT_TRUE(q.hold(4, message(9), 100, kQueueT0));
  EXPECT_TRUE(q.hold(3, message(2), 100, kQueueT0));
  EXPECT_EQ(q.held(), 3u);
  auto taken = q.take(3);
  ASSERT_EQ(taken.size(), 2u);
  EXPECT_EQ(std::get<TaskMessage>(taken[0]).seq, 1u);
  EXPECT_EQ(std::get<TaskMessage>(taken[1]).seq, 2u);
  EXPECT_TRUE(q.take(3).empty());
  EXPECT_EQ(q.held(), 1u);
}

TEST(UnknownPeerQueue, BoundsRefuseMore) {
  UnknownPeerQueue q({2, 1000, 2, std::chrono::seconds(10)});
  EXPECT_TRUE(q.hold(1, message(1), 10, kQueueT0));
  EXPECT_TRUE(q.hold(1, message(2), 10, kQueueT0));
  EXPECT_FALSE(q.hold(1, message(3), 10, kQueueT0));    // messages per node
  EXPECT_FALSE(q.hold(2, message(1), 2000, kQueueT0));  // bytes per node
  EXPECT_TRUE(q.hold(2, message(1), 10, kQueueT0));
  EXPECT_FALSE(q.hold(3, message(1), 10, kQueueT0));  // nodes
  EXPECT_EQ(q.held(), 3u);
}

TEST(UnknownPeerQueue, WhatWaitedTooLongIsDroppedAndCounted) {
  UnknownPeerQueue q;
  q.hold(5, message(1), 10, kQueueT0);
  q.hold(5, message(2), 10, kQueueT0 + std::chrono::seconds(9));
  q.hold(6, message(1), 10, kQueueT0 + std::chrono::seconds(5));
  EXPECT_TRUE(q.expire(kQueueT0 + std::chrono::seconds(10)).empty());
  auto expired = q.expire(kQueueT0 + std::chrono::seconds(11));
  ASSERT_EQ(expired.size(), 1u);
  EXPECT_EQ(expired[0].node, 5u);
  EXPECT_EQ(expired[0].messages, 2u);
  EXPECT_EQ(q.held(), 1u);
}

// A node known as dead: its task messages wait only briefly (a shorter max_age for that node).
TEST(UnknownPeerQueue, AShorterWaitForOneNode) {
  UnknownPeerQueue q;
  q.hold(7, message(1), 10, kQueueT0, std::chrono::seconds(3));
  q.hold(8, message(1), 10, kQueueT0);
  EXPECT_TRUE(q.expire(kQueueT0 + std::chrono::seconds(3)).empty());
  auto expired = q.expire(kQueueT0 + std::chrono::seconds(4));
  ASSERT_EQ(expired.size(), 1u);
  EXPECT_EQ(expired[0].node, 7u);
  EXPECT_EQ(q.held(), 1u) << "node 8 waits the full 10 s";
}

}  // namespace
}  // namespace drift
