// chatter's send schedule: deterministic, never to the sender, and the incoming counts every
// receiver computes add up to what the senders send.
#include "apps/chatter/chatter_schedule.h"

#include <gtest/gtest.h>

namespace drift::chatter {
namespace {

const Params kScheduleParams{5, 10, 3, 16, 0};

TEST(ChatterSchedule, TargetsAreDeterministicOthers) {
  for (std::uint32_t s = 0; s < kScheduleParams.tasks; ++s) {
    for (std::uint64_t k = 0; k < kScheduleParams.steps; ++k) {
      const auto t = targets(kScheduleParams, s, k);
      EXPECT_EQ(t, targets(kScheduleParams, s, k));
      ASSERT_EQ(t.size(), kScheduleParams.fanout);
      for (std::uint32_t to : t) {
        EXPECT_NE(to, s);
        EXPECT_LT(to, kScheduleParams.tasks);
      }
    }
  }
  EXPECT_NE(targets(kScheduleParams, 0, 0), targets(kScheduleParams, 0, 1));
}

TEST(ChatterSchedule, IncomingAddsUpToSent) {
  for (std::uint64_t k = 0; k < kScheduleParams.steps; ++k) {
    std::uint64_t in = 0;
    for (std::uint32_t r = 0; r < kScheduleParams.tasks; ++r) in += incoming(kScheduleParams, r, k);
    EXPECT_EQ(in, std::uint64_t{kScheduleParams.tasks} * kScheduleParams.fanout);
  }
}

TEST(ChatterSchedule, TwoTasksAlwaysTalkToEachOther) {
  const Params two{2, 3, 4, 0, 0};
  EXPECT_EQ(targets(two, 0, 2), (std::vector<std::uint32_t>{1, 1, 1, 1}));
  EXPECT_EQ(incoming(two, 1, 0), 4u);
  EXPECT_EQ(sender_count(two, 1, 0, 3), 1u);
}

TEST(ChatterSchedule, SenderCount) {
  EXPECT_EQ(sender_count(kScheduleParams, 2, 0, 0), 0u);
  EXPECT_EQ(sender_count(kScheduleParams, 2, 0, kScheduleParams.steps),
            kScheduleParams.tasks - 1);  // 30 draws per sender
}

}  // namespace
}  // namespace drift::chatter
