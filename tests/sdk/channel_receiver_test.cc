#include "sdk/channel_receiver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cereal/archives/portable_binary.hpp>
#include <map>
#include <random>
#include <sstream>

namespace drift {
namespace {

const TaskId kReceiver{1, 0};

TaskMessage message(TaskId from, std::uint64_t seq) {
  TaskMessage m;
  m.from = from;
  m.to = kReceiver;
  m.seq = seq;
  m.tag = 7;
  m.payload = {static_cast<std::uint8_t>(seq), static_cast<std::uint8_t>(from.index)};
  return m;
}

std::vector<std::uint64_t> seqs(const std::vector<TaskMessage>& msgs) {
  std::vector<std::uint64_t> out;
  for (const auto& m : msgs) out.push_back(m.seq);
  return out;
}

TEST(ChannelSenderTest, NumbersEachDestinationFromOne) {
  ChannelSender sender;
  const TaskId a{1, 1}, b{1, 2}, c{2, 1};
  EXPECT_EQ(sender.next(a), 1u);
  EXPECT_EQ(sender.next(a), 2u);
  EXPECT_EQ(sender.next(b), 1u);
  EXPECT_EQ(sender.next(c), 1u);
  EXPECT_EQ(sender.next(a), 3u);
}

TEST(ChannelReceiverTest, InOrderIsDeliveredImmediately) {
  ChannelReceiver r;
  const TaskId a{1, 1};
  for (std::uint64_t seq = 1; seq <= 5; ++seq) {
    auto out = r.accept(message(a, seq));
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0], message(a, seq));
  }
  EXPECT_EQ(r.held(), 0u);
  EXPECT_EQ(r.duplicates(), 0u);
}

TEST(ChannelReceiverTest, ReversedIsHeldThenReleasedInOrder) {
  ChannelReceiver r;
  const TaskId a{1, 1};
  for (std::uint64_t seq = 10; seq >= 2; --seq) EXPECT_TRUE(r.accept(message(a, seq)).empty());
  EXPECT_EQ(r.held(), 9u);
  auto out = r.accept(message(a, 1));
  EXPECT_EQ(seqs(out), (std::vector<std::uint64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(out[4], message(a, 5));
  EXPECT_EQ(r.held(), 0u);
}

TEST(ChannelReceiverTest, GapIsHeldUntilFilled) {
  ChannelReceiver r;
  const TaskId a{1, 1};
  EXPECT_EQ(seqs(r.accept(message(a, 1))), (std::vector<std::uint64_t>{1}));
  EXPECT_TRUE(r.accept(message(a, 3)).empty());
  EXPECT_TRUE(r.accept(message(a, 4)).empty());
  EXPECT_TRUE(r.accept(message(a, 6)).empty());
  EXPECT_EQ(r.held(), 3u);
  EXPECT_EQ(seqs(r.accept(message(a, 2))), (std::vector<std::uint64_t>{2, 3, 4}));
  EXPECT_EQ(r.held(), 1u);
  EXPECT_EQ(seqs(r.accept(message(a, 5))), (std::vector<std::uint64_t>{5, 6}));
  EXPECT_EQ(r.held(), 0u);
}

TEST(ChannelReceiverTest, DuplicatesAreDroppedAndCounted) {
  ChannelReceiver r;
  const TaskId a{1, 1};
  r.accept(message(a, 1));
  EXPECT_TRUE(r.accept(message(a, 1)).empty());  // already delivered
  r.accept(message(a, 3));
  EXPECT_TRUE(r.accept(message(a, 3)).empty());  // already held
  EXPECT_TRUE(r.accept(message(a, 0)).empty());  // never a valid seq
  EXPECT_EQ(r.duplicates(), 3u);
  EXPECT_EQ(r.held(), 1u);
  EXPECT_EQ(seqs(r.accept(message(a, 2))), (std::vector<std::uint64_t>{2, 3}));
  EXPECT_TRUE(r.accept(message(a, 2)).empty());
  EXPECT_EQ(r.duplicates(), 4u);
}

TEST(ChannelReceiverTest, WhatAHostilePeerCanMakeItHoldIsBounded) {
  ChannelReceiver r;
  const TaskId a{1, 1};
  // Far ahead of the channel (2^63, 2^24 + 2): refused, not held.
  EXPECT_TRUE(r.accept(message(a, std::uint64_t{1} << 63)).empty());
  EXPECT_TRUE(r.accept(message(a, ChannelReceiver::kMaxAhead + 2)).empty());
  EXPECT_EQ(r.refused(), 2u);
  EXPECT_EQ(r.held(), 0u);
  // Just within: held, and delivered when the gap fills.
  EXPECT_TRUE(r.accept(message(a, ChannelReceiver::kMaxAhead + 1)).empty());
  EXPECT_EQ(r.held(), 1u);
  // Up to kMaxHeld early messages in all, over any number of channels; then refused.
  for (std::size_t i = 1; i < ChannelReceiver::kMaxHeld; ++i) {
    r.accept(message(TaskId{1, static_cast<std::uint32_t>(2 + i % 1000)}, 2 + (i - 1) / 1000));
  }
  EXPECT_EQ(r.held(), ChannelReceiver::kMaxHeld);
  EXPECT_TRUE(r.accept(message(TaskId{1, 5000}, 2)).empty());
  EXPECT_EQ(r.refused(), 3u);
  // Delivering frees room: seq 1 of channel 2 releases what it held.
  const auto released = r.accept(message(TaskId{1, 2}, 1));
  EXPECT_GT(released.size(), 1u);
  EXPECT_EQ(r.held(), ChannelReceiver::kMaxHeld + 1 - released.size());
}

TEST(ChannelReceiverTest, ChannelsAreIndependent) {
  ChannelReceiver r;
  const TaskId a{1, 1}, b{1, 2};
  EXPECT_TRUE(r.accept(message(a, 2)).empty());
  EXPECT_EQ(seqs(r.accept(message(b, 1))), (std::vector<std::uint64_t>{1}));
  auto out = r.accept(message(a, 1));
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].from, a);
  EXPECT_EQ(out[1].from, a);
}

// Property: for any interleaving of many channels' permuted, partly duplicated messages, each
// channel is delivered exactly once and in order, and everything is released at the end.
TEST(ChannelReceiverTest, RandomInterleavingsDeliverEachChannelInOrderExactlyOnce) {
  std::mt19937_64 rng(20240611);
  for (int round = 0; round < 50; ++round) {
    std::vector<TaskMessage> arrivals;
    const std::uint32_t channels = 1 + rng() % 8;
    std::map<TaskId, std::uint64_t> sent;
    for (std::uint32_t c = 0; c < channels; ++c) {
      const TaskId from{1 + c % 2, c};
      sent[from] = rng() % 40;
      for (std::uint64_t seq = 1; seq <= sent[from]; ++seq) arrivals.push_back(message(from, seq));
    }
    const std::size_t originals = arrivals.size();
    for (std::size_t i = 0; i < originals / 5; ++i) arrivals.push_back(arrivals[rng() % originals]);
    std::shuffle(arrivals.begin(), arrivals.end(), rng);

    ChannelReceiver r;
    std::map<TaskId, std::uint64_t> delivered;
    for (auto& m : arrivals) {
      for (const auto& out : r.accept(std::move(m))) {
        ASSERT_EQ(out.seq, ++delivered[out.from]) << "round " << round;
        ASSERT_EQ(out, message(out.from, out.seq));
      }
    }
    for (const auto& [from, count] : sent) EXPECT_EQ(delivered[from], count) << "round " << round;
    EXPECT_EQ(r.held(), 0u);
    EXPECT_EQ(r.duplicates(), arrivals.size() - originals);
  }
}

template <class T>
T round_trip(const T& value) {
  std::stringstream buffer;
  {
    cereal::PortableBinaryOutputArchive out(buffer);
    out(value);
  }
  T copy;
  cereal::PortableBinaryInputArchive in(buffer);
  in(copy);
  return copy;
}

TEST(ChannelReceiverTest, StateSurvivesSerializationMidStream) {
  ChannelReceiver r;
  ChannelSender s;
  const TaskId a{1, 1}, b{2, 5};
  r.accept(message(a, 1));
  r.accept(message(a, 3));
  r.accept(message(a, 3));
  r.accept(message(b, 2));
  s.next(a);
  s.next(a);

  ChannelReceiver moved = round_trip(r);
  ChannelSender moved_sender = round_trip(s);
  EXPECT_EQ(moved.held(), 2u);
  EXPECT_EQ(moved.duplicates(), 1u);
  EXPECT_TRUE(moved.accept(message(a, 1)).empty());  // still known as delivered
  auto out = moved.accept(message(a, 2));
  ASSERT_EQ(seqs(out), (std::vector<std::uint64_t>{2, 3}));
  EXPECT_EQ(out[1], message(a, 3));
  EXPECT_EQ(seqs(moved.accept(message(b, 1))), (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(moved_sender.next(a), 3u);
  EXPECT_EQ(moved_sender.next(b), 1u);
}

}  // namespace
}  // namespace drift
