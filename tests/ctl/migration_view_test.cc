// migration_view: the one line `driftctl migrate` prints.
#include "ctl/migration_view.h"

#include <gtest/gtest.h>

namespace drift::ctl {
namespace {

TEST(MigrationViewTest, SummaryNamesTaskNodesSizeAndTime) {
  MigrationReport r;
  r.ok = true;
  r.task = {0x1a2b3c0001, 5};
  r.from = 2;
  r.to = 3;
  r.state_bytes = 64ull << 20;
  r.seconds = 0.0874;
  EXPECT_EQ(migration_summary(r),
            "moved 0x1a2b3c0001:5 from node 2 to node 3: 64.0 MiB in 0.087 s");
}

TEST(MigrationViewTest, FailureNamesWhatWasAskedAndWhy) {
  EXPECT_EQ(migration_failure({0x1a, 2}, 9, "node 9 is not alive"),
            "cannot move 0x1a:2 to node 9: node 9 is not alive");
  EXPECT_EQ(migration_failure({0x1a, 2}, 9, ""),
            "cannot move 0x1a:2 to node 9: the daemon gave no reason");
}

}  // namespace
}  // namespace drift::ctl
