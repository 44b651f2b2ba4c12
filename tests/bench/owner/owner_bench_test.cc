// The owner benchmark's arithmetic on drift_owner's output (owner_bench.h).
#include "tests/bench/owner/owner_bench.h"

#include <gtest/gtest.h>

namespace drift::bench {
namespace {

TEST(OwnerBenchTest, ParsesWindowsAndRejectsGarbage) {
  auto w = parse_rate_windows("0.25 100\n0.5 200\n");
  ASSERT_TRUE(w.is_ok()) << w.error();
  ASSERT_EQ(w->size(), 2u);
  EXPECT_EQ((*w)[1], (std::pair<double, double>{0.5, 200}));
  EXPECT_FALSE(parse_rate_windows("0.25 fast\n").is_ok());
}

TEST(OwnerBenchTest, MeanRateTakesWindowsInsideTheSpan) {
  const RateWindows w = {{0.25, 10}, {0.5, 20}, {0.75, 30}, {2.25, 40}, {2.5, 50}};
  EXPECT_EQ(mean_rate(w, 0.25, 0, 0.5), 15);    // the first two
  EXPECT_EQ(mean_rate(w, 0.25, 2.0, 1e9), 45);  // windows that start at 2 s or later
  EXPECT_EQ(mean_rate(w, 0.25, 5, 6), 0);
}

}  // namespace
}  // namespace drift::bench
