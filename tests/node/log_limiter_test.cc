// LogLimiter (node/net/log_limiter.h): a burst per window, then silence that the next allowed
// line can count.
#include <gtest/gtest.h>

#include "node/net/log_limiter.h"

namespace drift {
namespace {

TEST(LogLimiterTest, ABurstPerWindowAndTheHeldBackLinesCounted) {
  LogLimiter limiter(3, std::chrono::seconds(10));
  const auto t0 = LogLimiter::Clock::time_point{} + std::chrono::hours(1);
  int allowed = 0;
  for (int i = 0; i < 100; ++i) allowed += limiter.allow(t0 + std::chrono::milliseconds(i)) ? 1 : 0;
  EXPECT_EQ(allowed, 3);
  EXPECT_TRUE(limiter.allow(t0 + std::chrono::seconds(11)));
  EXPECT_EQ(limiter.suppressed(), 97u);
  EXPECT_TRUE(limiter.allow(t0 + std::chrono::seconds(11)));
  EXPECT_EQ(limiter.suppressed(), 0u);
}

}  // namespace
}  // namespace drift
