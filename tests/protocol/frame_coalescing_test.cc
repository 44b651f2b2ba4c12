// take_coalesced (protocol/frame_coalescing.h): small frames queued one behind the other come off
// as one frame holding their bytes in order, up to one TLS record's worth; a large frame is never
// copied, nor merged with small ones.
#include "protocol/frame_coalescing.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace drift {
namespace {

std::vector<std::uint8_t> bytes_of(const Frame& f) {
  std::vector<std::uint8_t> out;
  if (f.head) out.assign(f.head->begin(), f.head->end());
  out.insert(out.end(), f.tail.begin(), f.tail.end());
  return out;
}

Frame filled(std::size_t size, std::uint8_t value) {
  return make_frame(std::vector<std::uint8_t>(size, value));
}

// A frame whose bytes are all tail (as a task's large payload is sent).
Frame tail_only(std::size_t size, std::uint8_t value) {
  auto owner = std::make_shared<const std::vector<std::uint8_t>>(size, value);
  Frame f;
  f.tail = std::span<const std::uint8_t>(*owner);
  f.tail_owner = owner;
  return f;
}

TEST(FrameCoalescing, SmallFramesComeOffAsOneInOrder) {
  std::deque<Frame> queue;
  Frame with_tail = filled(10, 3);
  Frame tail = tail_only(5, 4);
  with_tail.tail = tail.tail;
  with_tail.tail_owner = tail.tail_owner;
  queue.push_back(filled(100, 1));
  queue.push_back(filled(200, 2));
  queue.push_back(with_tail);
  Frame out = take_coalesced(queue);
  EXPECT_TRUE(queue.empty());
  std::vector<std::uint8_t> want(100, 1);
  want.insert(want.end(), 200, 2);
  want.insert(want.end(), 10, 3);
  want.insert(want.end(), 5, 4);
  EXPECT_EQ(bytes_of(out), want);
}

TEST(FrameCoalescing, AtMostOneRecordsWorthIsCopiedTogether) {
  std::deque<Frame> queue;
  const std::size_t n = kCoalescedBytes / 1000 + 3;
  for (std::size_t i = 0; i < n; ++i) queue.push_back(filled(1000, static_cast<std::uint8_t>(i)));
  Frame first = take_coalesced(queue);
  EXPECT_EQ(first.size(), (kCoalescedBytes / 1000) * 1000);
  EXPECT_LE(first.size(), kCoalescedBytes);
  EXPECT_EQ(queue.size(), 3u);
  EXPECT_EQ(bytes_of(first).back(), static_cast<std::uint8_t>(kCoalescedBytes / 1000 - 1));
  EXPECT_EQ(bytes_of(queue.front()).front(), static_cast<std::uint8_t>(kCoalescedBytes / 1000));
}

TEST(FrameCoalescing, ALargeFrameComesOffAloneAndUncopied) {
  std::deque<Frame> queue;
  Frame large = tail_only(kSmallFrame, 9);
  const std::uint8_t* data = large.tail.data();
  queue.push_back(large);
  queue.push_back(filled(10, 1));
  Frame out = take_coalesced(queue);
  EXPECT_EQ(out.tail.data(), data);
  EXPECT_EQ(out.size(), kSmallFrame);
  ASSERT_EQ(queue.size(), 1u);

  // A small frame with a large one behind it: alone too, and the large one stays queued.
  queue.push_front(filled(10, 2));
  queue.push_back(tail_only(1 << 20, 5));
  queue.erase(queue.begin() + 1);  // [small 2, large]
  Frame small = take_coalesced(queue);
  EXPECT_EQ(bytes_of(small), std::vector<std::uint8_t>(10, 2));
  ASSERT_EQ(queue.size(), 1u);
  EXPECT_EQ(queue.front().size(), std::size_t{1} << 20);
}

}  // namespace
}  // namespace drift
