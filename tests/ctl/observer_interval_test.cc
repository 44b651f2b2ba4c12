// observer_interval: a fault run asks a daemon under a small CPU quota less often, in proportion,
// so that answering costs it no bigger share of its CPU than a fast daemon's.
#include <gtest/gtest.h>

#include "ctl/fault_observer.h"

namespace drift::ctl {
namespace {

using std::chrono::milliseconds;

TEST(ObserverIntervalTest, AsksEveryBaseWithoutAQuotaOrFromHalfACoreUp) {
  EXPECT_EQ(observer_interval(milliseconds(30), std::nullopt), milliseconds(30));
  EXPECT_EQ(observer_interval(milliseconds(30), 0.5), milliseconds(30));
  EXPECT_EQ(observer_interval(milliseconds(30), 1.5), milliseconds(30));
}

TEST(ObserverIntervalTest, StretchesInProportionBelowHalfACore) {
  EXPECT_EQ(observer_interval(milliseconds(30), 0.25), milliseconds(60));
  EXPECT_EQ(observer_interval(milliseconds(30), 0.2), milliseconds(75));
  EXPECT_EQ(observer_interval(milliseconds(30), 0.05), milliseconds(300));
}

TEST(ObserverIntervalTest, ANonsenseQuotaIsNoQuota) {
  EXPECT_EQ(observer_interval(milliseconds(30), 0.0), milliseconds(30));
  EXPECT_EQ(observer_interval(milliseconds(30), -1.0), milliseconds(30));
}

}  // namespace
}  // namespace drift::ctl
