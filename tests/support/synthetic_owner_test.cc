// The synthetic owner's schedule (tests/support/synthetic_owner.h).
#include "tests/support/synthetic_owner.h"

#include <gtest/gtest.h>

namespace drift::test {
namespace {

TEST(SyntheticOwnerTest, RampsLinearlyToTheLevelAndHolds) {
  EXPECT_EQ(ramped(2, 10, -1), 0);
  EXPECT_EQ(ramped(2, 10, 0), 0);
  EXPECT_EQ(ramped(2, 10, 5), 1);
  EXPECT_EQ(ramped(2, 10, 10), 2);
  EXPECT_EQ(ramped(2, 10, 30), 2);
  EXPECT_EQ(ramped(1.5, 0, 0), 1.5);  // no ramp: the level at once
}

TEST(SyntheticOwnerTest, FractionalLevelsSplitIntoFullAndPartialThreads) {
  EXPECT_EQ(duty(1.5, 0), 1);
  EXPECT_EQ(duty(1.5, 1), 0.5);
  EXPECT_EQ(duty(1.5, 2), 0);
  EXPECT_EQ(threads_for({1.5}), 2u);
  EXPECT_EQ(threads_for({0}), 1u);
}

TEST(SyntheticOwnerTest, TouchesAtStartThenOnSchedule) {
  OwnerSchedule once{1, 0, 0, 10, 0};
  EXPECT_TRUE(touch_due(once, 0, -1));
  EXPECT_FALSE(touch_due(once, 100, 0));
  OwnerSchedule every{1, 0, 0, 10, 2};
  EXPECT_FALSE(touch_due(every, 1.9, 0));
  EXPECT_TRUE(touch_due(every, 2.0, 0));
}

TEST(SyntheticOwnerTest, ValidationNamesTheOption) {
  EXPECT_TRUE(validate({}).is_ok());
  EXPECT_EQ(validate({-1}).message(), "--cpu '-1' must be 0..256 cores");
  EXPECT_EQ(validate({1, 0, -2}).message(), "--ramp '-2' must be >= 0 seconds");
  EXPECT_EQ(validate({1, 0, 0, 0}).message(), "--duration '0' must be > 0 seconds");
}

}  // namespace
}  // namespace drift::test
