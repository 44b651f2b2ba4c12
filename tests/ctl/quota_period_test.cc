// quota_period_us: every quota comes out as asked, the period stretched only where the kernel's
// 1 ms smallest quota would otherwise round it up.
#include <gtest/gtest.h>

#include "ctl/fault_cpu_quota.h"

namespace drift::ctl {
namespace {

TEST(QuotaPeriodTest, KeepsThePeriodWhereTheQuotaIsAtLeastOneMillisecond) {
  EXPECT_EQ(quota_period_us(0.2, 20000), 20000);   // 4 ms per 20 ms
  EXPECT_EQ(quota_period_us(0.05, 20000), 20000);  // exactly 1 ms
  EXPECT_EQ(quota_period_us(1.5, 100000), 100000);
}

TEST(QuotaPeriodTest, StretchesThePeriodOfASmallQuotaSoItIsNotRoundedUp) {
  const long period = quota_period_us(0.033, 20000);
  EXPECT_EQ(period, 30304);  // ceil(1000 / 0.033)
  EXPECT_GE(0.033 * static_cast<double>(period), 1000.0);
  EXPECT_EQ(quota_period_us(0.001, 20000), 1000000);  // the kernel's largest period
}

TEST(QuotaPeriodTest, KeepsThePeriodInsideTheKernelsBounds) {
  EXPECT_EQ(quota_period_us(0.5, 10), 2000);  // 1000 at least, then 1 ms of quota
  EXPECT_EQ(quota_period_us(0.5, 5000000), 1000000);
}

}  // namespace
}  // namespace drift::ctl
