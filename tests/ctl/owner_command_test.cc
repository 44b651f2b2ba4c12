// owner_summary: the line `driftctl reclaim | release` prints.
#include "ctl/owner_command.h"

#include <gtest/gtest.h>

namespace drift::ctl {
namespace {

TEST(OwnerCommandTest, SummaryNamesTheNodeItsStateAndWhy) {
  EXPECT_EQ(owner_summary({2, "ws-12", OwnerState::kDraining, 4, "reclaimed by command"}),
            "node 2 (ws-12): draining, 4 tasks leaving (reclaimed by command)");
  EXPECT_EQ(owner_summary({2, "ws-12", OwnerState::kDraining, 1, ""}),
            "node 2 (ws-12): draining, 1 task leaving");
  EXPECT_EQ(owner_summary({3, "n3", OwnerState::kAvailable, 0, "released by command"}),
            "node 3 (n3): available (released by command)");
  EXPECT_EQ(owner_summary({3, "n3", OwnerState::kReclaimed, 0, "reclaimed by command"}),
            "node 3 (n3): reclaimed (reclaimed by command)");
}

}  // namespace
}  // namespace drift::ctl
