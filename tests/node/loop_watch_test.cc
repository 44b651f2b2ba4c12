// LoopHold: the slowest outermost scope since the last take is what a late round blames; nested
// scopes count as part of their outer one; a take resets it.
#include "node/net/loop_watch.h"

#include <gtest/gtest.h>

#include <thread>

namespace drift {
namespace {

// Busy for at least `d` (no sleep: the scope measures the thread's time held, as a handler's).
void hold_for(std::chrono::microseconds d) {
  const auto until = std::chrono::steady_clock::now() + d;
  while (std::chrono::steady_clock::now() < until) {
  }
}

TEST(LoopWatch, TheSlowestOutermostScopeIsBlamedAndATakeResetsIt) {
  take_slowest_hold();
  {
    const LoopHold a("short handler");
    hold_for(std::chrono::microseconds(200));
  }
  {
    const LoopHold b("long handler");
    const LoopHold nested("its inner work");  // not outermost: part of the long handler
    hold_for(std::chrono::microseconds(3000));
  }
  const SlowestHold slowest = take_slowest_hold();
  ASSERT_NE(slowest.what, nullptr);
  EXPECT_STREQ(slowest.what, "long handler");
  EXPECT_GE(slowest.took.count(), 3000);
  EXPECT_EQ(describe(slowest).rfind("long handler for ", 0), 0u) << describe(slowest);
  EXPECT_EQ(take_slowest_hold().what, nullptr);
  EXPECT_EQ(describe(SlowestHold{}), "");
}

TEST(LoopWatch, EachThreadWatchesItsOwnLoop) {
  take_slowest_hold();
  std::thread other([] {
    const LoopHold h("another daemon's handler");
    hold_for(std::chrono::microseconds(500));
  });
  other.join();
  EXPECT_EQ(take_slowest_hold().what, nullptr);
}

}  // namespace
}  // namespace drift
