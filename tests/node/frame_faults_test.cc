// frame_faults: the test-only per-frame decisions (drop, duplicate, delay) behind test.* keys.
#include "node/net/frame_faults.h"

#include <gtest/gtest.h>

namespace drift {
namespace {

TEST(FrameFaultsTest, OffByDefault) {
  FrameFaults f(1);
  EXPECT_FALSE(f.active());
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(f.copies(), 1);
  EXPECT_EQ(f.delay().count(), 0);
}

TEST(FrameFaultsTest, DropsAndDuplicatesAboutTheirFractions) {
  FrameFaults f(42);
  f.set({0.1, 0.2, 0});
  int counts[3] = {0, 0, 0};
  const int n = 20000;
  for (int i = 0; i < n; ++i) ++counts[f.copies()];
  EXPECT_NEAR(counts[0] / double(n), 0.1, 0.01);
  EXPECT_NEAR(counts[2] / double(n), 0.9 * 0.2, 0.01);  // of the frames not dropped
  EXPECT_EQ(f.dropped(), static_cast<std::uint64_t>(counts[0]));
  EXPECT_EQ(f.duplicated(), static_cast<std::uint64_t>(counts[2]));
}

TEST(FrameFaultsTest, AllOrNothing) {
  FrameFaults f(7);
  f.set({1, 0, 0});
  for (int i = 0; i < 100; ++i) EXPECT_EQ(f.copies(), 0);
  f.set({0, 1, 0});
  for (int i = 0; i < 100; ++i) EXPECT_EQ(f.copies(), 2);
}

TEST(FrameFaultsTest, DelayAndText) {
  FrameFaults f(7);
  f.set({0.01, 0, 5.5});
  EXPECT_TRUE(f.active());
  EXPECT_EQ(f.delay().count(), 5500);
  EXPECT_EQ(f.settings().text(), "drop 0.01, duplicate 0, delay 5.5 ms");
}

}  // namespace
}  // namespace drift
