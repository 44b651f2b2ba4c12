// progress_bar: rendering of `driftctl run`'s progress line.
#include "ctl/progress_bar.h"

#include <gtest/gtest.h>

namespace drift::ctl {
namespace {

TEST(ProgressBarTest, RendersHalfway) {
  EXPECT_EQ(render_progress(50, 100, {1.2e-3}, 2.14, 20),
            "[##########          ] 50/100 steps  0.0012  2.1 s");
}

TEST(ProgressBarTest, FullAndEmpty) {
  EXPECT_EQ(render_progress(0, 10, {}, 0, 4), "[    ] 0/10 steps   0.0 s");
  EXPECT_EQ(render_progress(10, 10, {}, 1, 4), "[####] 10/10 steps   1.0 s");
  EXPECT_EQ(render_progress(12, 10, {}, 1, 4), "[####] 12/10 steps   1.0 s");
}

TEST(ProgressBarTest, DisabledBarWritesNothing) {
  char buffer[64] = {};
  FILE* out = fmemopen(buffer, sizeof buffer, "w");
  ProgressBar bar(out, false);
  bar.update(1, 2, {});
  bar.finish();
  std::fclose(out);
  EXPECT_STREQ(buffer, "");
}

}  // namespace
}  // namespace drift::ctl
