#include "node/machine/external_load.h"

#include <gtest/gtest.h>

namespace drift {
namespace {

TEST(ExternalLoadTest, LoadAverageMinusOurRunnableThreadsPerCore) {
  EXPECT_DOUBLE_EQ(external_load_per_core(3.0, 1, 2), 1.0);
  EXPECT_DOUBLE_EQ(external_load_per_core(0.5, 2, 4), 0.0);  // never negative
  EXPECT_DOUBLE_EQ(external_load_per_core(2.0, 0, 0), 2.0);  // 0 cores counts as one
}

TEST(ExternalLoadTest, StateLetterFollowsTheLastParenthesis) {
  EXPECT_EQ(stat_state("1234 (driftd) R 1 1234 1234 0 -1"), 'R');
  EXPECT_EQ(stat_state("77 (a) b) (c) S 0 0"), 'S');  // a command name with ") "
  EXPECT_EQ(stat_state("no parenthesis R"), '\0');
  EXPECT_EQ(stat_state("12 (x)"), '\0');
  EXPECT_EQ(stat_state("12 (x)R"), '\0');
}

TEST(ExternalLoadTest, CountsAtLeastTheThreadAskingWhileItRuns) {
  EXPECT_GE(count_own_runnable_threads(), 1u);
}

}  // namespace
}  // namespace drift
