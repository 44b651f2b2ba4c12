// The parsers behind a stall's account of where the network thread's time went.
#include "node/net/thread_time.h"

#include <gtest/gtest.h>

namespace drift {
namespace {

using std::chrono::nanoseconds;

TEST(ThreadTime, ParsesSchedstat) {
  auto t = parse_schedstat("81234567 905000000 412\n");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->ran, nanoseconds(81234567));
  EXPECT_EQ(t->waited, nanoseconds(905000000));
  EXPECT_FALSE(parse_schedstat(""));
  EXPECT_FALSE(parse_schedstat("12"));
  EXPECT_FALSE(parse_schedstat("x 1 2"));
}

TEST(ThreadTime, ParsesThrottledTimeOfBothCgroupVersions) {
  auto v1 = parse_throttled("nr_periods 500\nnr_throttled 420\nthrottled_time 8400000000\n");
  ASSERT_TRUE(v1);
  EXPECT_EQ(*v1, nanoseconds(8400000000));
  auto v2 = parse_throttled("usage_usec 1000\nuser_usec 800\nsystem_usec 200\nnr_periods 5\n"
                            "nr_throttled 2\nthrottled_usec 30000\n");
  ASSERT_TRUE(v2);
  EXPECT_EQ(*v2, nanoseconds(30000000));
  EXPECT_FALSE(parse_throttled("usage_usec 1000\n"));
  EXPECT_FALSE(parse_throttled("throttled_time x\n"));
}

TEST(ThreadTime, ThisThreadsTimeGrowsWhileItComputes) {
  auto before = read_thread_time();
  if (!before) GTEST_SKIP() << "this kernel has no /proc/thread-self/schedstat";
  volatile unsigned long sink = 0;
  for (unsigned long i = 0; i < 50'000'000; ++i) sink = sink + i;
  auto after = read_thread_time();
  ASSERT_TRUE(after);
  EXPECT_GT(after->ran, before->ran);
}

}  // namespace
}  // namespace drift
