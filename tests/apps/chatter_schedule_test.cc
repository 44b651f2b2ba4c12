// chatter's send schedule: deterministic, never to the sender, and the incoming counts every
// receiver computes add up to what the senders send.
#include "apps/chatter/chatter_schedule.h"

#include <gtest/gtest.h>

namespace drift::chatter {
namespace {

const Params kParams{5, 10, 3, 16, 0};

TEST(ChatterSchedule, TargetsAreDeterministicOthers) {
  for (std::uint32_t s = 0; s < kParams.tasks; ++s) {
    for (std::uint64_t k = 0; k < kParams.steps; ++k) {
      const auto t = targets(kParams, s, k);
      EXPECT_EQ(t, targets(kParams, s, k));
      ASSERT_EQ(t.size(), kParams.fanout);
      for (std::uint32_t to : t) {
        EXPECT_NE(to, s);
        EXPECT_LT(to, kParams.tasks);
      }
    }
  }
  EXPECT_NE(targets(kParams, 0, 0), targets(kParams, 0, 1));
}

TEST(ChatterSchedule, IncomingAddsUpToSent) {
  for (std::uint64_t k = 0; k < kParams.steps; ++k) {
    std::uint64_t in = 0;
    for (std::uint32_t r = 0; r < kParams.tasks; ++r) in += incoming(kParams, r, k);
    EXPECT_EQ(in, std::uint64_t{kParams.tasks} * kParams.fanout);
  }
}

TEST(ChatterSchedule, TwoTasksAlwaysTalkToEachOther) {
  const Params two{2, 3, 4, 0, 0};
  EXPECT_EQ(targets(two, 0, 2), (std::vector<std::uint32_t>{1, 1, 1, 1}));
  EXPECT_EQ(incoming(two, 1, 0), 4u);
  EXPECT_EQ(sender_count(two, 1, 0, 3), 1u);
}

TEST(ChatterSchedule, SenderCount) {
  EXPECT_EQ(sender_count(kParams, 2, 0, 0), 0u);
  EXPECT_EQ(sender_count(kParams, 2, 0, kParams.steps), kParams.tasks - 1);  // 30 draws per sender
}

}  // namespace
}  // namespace drift::chatter
