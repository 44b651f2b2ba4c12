// StateStream: a reader (the installer) loads a state through BoundedInputArchive while the
// chunks are still being added, in any order, by another thread; chunks are checked as by
// StateAssembler; fail() ends a read that waits.
#include "migration/state_stream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <thread>
#include <vector>

#include <drift/archives.h>

namespace drift {
namespace {

constexpr std::uint32_t kChunk = 1000;

std::vector<std::uint64_t> words(std::size_t n) {
  std::vector<std::uint64_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = i * 7919 + 1;
  return v;
}

TEST(StateStreamTest, LoadsWhileChunksArriveInAnyOrder) {
  const auto value = words(5000);
  auto bytes = std::make_shared<const std::vector<std::uint8_t>>(encode_portable(value));
  const std::uint32_t n = chunk_count(bytes->size(), kChunk);
  StateStream stream(bytes->size(), n, kChunk);
  std::vector<std::uint32_t> order(n);
  for (std::uint32_t i = 0; i < n; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), std::mt19937(7));
  std::thread network([&] {
    for (std::uint32_t i : order) {
      ASSERT_TRUE(stream.add(i, chunk_of(*bytes, i, kChunk), bytes).is_ok());
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  });
  std::vector<std::uint64_t> loaded;
  BoundedInputArchive in(stream);
  in(loaded);
  network.join();
  EXPECT_EQ(in.remaining(), 0u);
  EXPECT_EQ(loaded, value);
  EXPECT_TRUE(stream.complete());
}

TEST(StateStreamTest, FailEndsAWaitingRead) {
  const auto bytes = encode_portable(words(1000));
  const std::uint32_t n = chunk_count(bytes.size(), kChunk);
  StateStream stream(bytes.size(), n, kChunk);
  ASSERT_TRUE(stream.add(0, chunk_of(bytes, 0, kChunk), nullptr).is_ok());
  std::thread network([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    stream.fail("the source gave up");
  });
  std::vector<std::uint64_t> loaded;
  try {
    BoundedInputArchive in(stream);
    in(loaded);
    FAIL() << "loaded a state that never arrived";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "the source gave up");
  }
  network.join();
  EXPECT_FALSE(stream.complete());
}

TEST(StateStreamTest, ChecksChunksLikeTheAssembler) {
  const auto bytes = encode_portable(words(300));
  const std::uint32_t n = chunk_count(bytes.size(), kChunk);
  StateStream stream(bytes.size(), n, kChunk);
  ASSERT_TRUE(stream.add(1, chunk_of(bytes, 1, kChunk), nullptr).is_ok());
  EXPECT_FALSE(stream.add(1, chunk_of(bytes, 1, kChunk), nullptr).is_ok());
  EXPECT_FALSE(stream.add(n, {}, nullptr).is_ok());
  EXPECT_FALSE(stream.add(0, chunk_of(bytes, 0, kChunk).first(10), nullptr).is_ok());
}

}  // namespace
}  // namespace drift
