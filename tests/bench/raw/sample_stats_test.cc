// Median and best of repeated measurements.
#include "tests/bench/raw/sample_stats.h"

#include <gtest/gtest.h>

namespace drift::bench {
namespace {

TEST(SampleStats, MedianAndBest) {
  EXPECT_EQ(median({}), 0);
  EXPECT_EQ(median({3, 1, 2}), 2);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(best({3, 1, 2}), 1);
  EXPECT_EQ(best({}), 0);
}

}  // namespace
}  // namespace drift::bench
