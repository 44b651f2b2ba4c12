// BufferPool: buffers come back when dropped and are handed out again (the same memory), small
// requests are plain allocations, the idle bytes stay under the limit, trim_if_unused() frees
// them once a whole period passed without a take, and a buffer may outlive its pool.
#include "migration/buffer_pool.h"

#include <gtest/gtest.h>

#include <vector>

namespace drift {
namespace {

constexpr std::size_t kMiB = 1u << 20;

TEST(BufferPoolTest, ReusesReturnedBuffers) {
  BufferPool pool(8 * kMiB);
  const std::uint8_t* first = nullptr;
  {
    auto b = pool.take(kMiB + 33);
    ASSERT_EQ(b->size, kMiB + 33);
    EXPECT_EQ(b->capacity % BufferPool::kGranule, 0u);
    EXPECT_GE(b->capacity, b->size);
    first = b->data.get();
  }
  EXPECT_EQ(pool.idle_bytes(), kMiB + BufferPool::kGranule);
  auto again = pool.take(kMiB);  // fits the same buffer
  EXPECT_EQ(again->data.get(), first);
  EXPECT_EQ(again->size, kMiB);
  EXPECT_EQ(pool.idle_bytes(), 0u);
}

TEST(BufferPoolTest, DoesNotHandOutABufferMuchLargerThanAsked) {
  BufferPool pool(64 * kMiB);
  pool.take(8 * kMiB).reset();
  auto small = pool.take(kMiB);
  EXPECT_EQ(small->capacity, kMiB);
  EXPECT_EQ(pool.idle_bytes(), 8 * kMiB);
}

TEST(BufferPoolTest, SmallRequestsAreNotPooled) {
  BufferPool pool(8 * kMiB);
  auto b = pool.take(100);
  EXPECT_EQ(b->size, 100u);
  b.reset();
  EXPECT_EQ(pool.idle_bytes(), 0u);
  EXPECT_EQ(pool.take(0)->size, 0u);
}

TEST(BufferPoolTest, KeepsAtMostTheIdleLimit) {
  BufferPool pool(3 * kMiB);
  std::vector<BufferPool::Ptr> held;
  for (int i = 0; i < 5; ++i) held.push_back(pool.take(kMiB));
  held.clear();
  EXPECT_EQ(pool.idle_bytes(), 3 * kMiB);
}

TEST(BufferPoolTest, TrimFreesIdleBuffersAfterAQuietSpell) {
  BufferPool pool(8 * kMiB);
  pool.take(kMiB).reset();
  pool.trim_if_unused();  // taken since the last call: kept
  EXPECT_EQ(pool.idle_bytes(), kMiB);
  pool.trim_if_unused();  // nothing taken since
  EXPECT_EQ(pool.idle_bytes(), 0u);
}

TEST(BufferPoolTest, ABufferMayOutliveItsPool) {
  BufferPool::Ptr kept;
  {
    BufferPool pool(8 * kMiB);
    kept = pool.take(2 * kMiB);
    kept->data[0] = 7;
  }
  EXPECT_EQ(kept->data[0], 7);
  kept.reset();  // freed, not returned
}

}  // namespace
}  // namespace drift
