// AppQuerySlots: how many questions to applications run at once, a user's checks bounded apart,
// a combine never refused but kept until a slot frees.
#include "node/workers/app_query_slots.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace drift {
namespace {

constexpr auto kCheck = AppQueryKind::kValidate;
constexpr auto kCombine = AppQueryKind::kCombine;

TEST(AppQuerySlotsTest, AUsersChecksBeyondTheirShareAreRefusedNamingThem) {
  AppQuerySlots slots;
  int started = 0;
  for (int i = 0; i < AppQuerySlots::kChecksPerOwner; ++i) {
    EXPECT_FALSE(slots.take(kCheck, "alice", [&] { ++started; }));
  }
  const auto refused = slots.take(kCheck, "alice", [&] { ++started; });
  ASSERT_TRUE(refused);
  EXPECT_NE(refused->find("alice"), std::string::npos) << *refused;
  EXPECT_EQ(started, AppQuerySlots::kChecksPerOwner);
  // Another user still gets the slots left.
  EXPECT_FALSE(slots.take(kCheck, "bob", [&] { ++started; }));
  EXPECT_EQ(started, AppQuerySlots::kChecksPerOwner + 1);
  // One of alice's ends: she may check one more.
  slots.release(kCheck, "alice");
  EXPECT_FALSE(slots.take(kCheck, "alice", [&] { ++started; }));
  EXPECT_EQ(slots.running(), AppQuerySlots::kChecksPerOwner + 1);
}

TEST(AppQuerySlotsTest, WhenAllAreTakenAChecksIsRefusedAndACombineWaitsItsTurn) {
  AppQuerySlots slots;
  std::vector<std::string> order;
  for (int i = 0; i < AppQuerySlots::kAtOnce; ++i) {
    const std::string owner = "user" + std::to_string(i);
    EXPECT_FALSE(slots.take(kCheck, owner, [&order, owner] { order.push_back(owner); }));
  }
  EXPECT_TRUE(slots.take(kCheck, "late", [&] { order.push_back("late"); }));
  EXPECT_FALSE(slots.take(kCombine, "carol", [&] { order.push_back("carol"); }));
  EXPECT_FALSE(slots.take(kCombine, "dave", [&] { order.push_back("dave"); }));
  EXPECT_EQ(slots.waiting(), 2u);
  EXPECT_EQ(order.size(), std::size_t{AppQuerySlots::kAtOnce});
  slots.release(kCheck, "user0");  // carol's combine takes the slot, dave still waits
  ASSERT_EQ(order.size(), std::size_t{AppQuerySlots::kAtOnce} + 1);
  EXPECT_EQ(order.back(), "carol");
  EXPECT_EQ(slots.waiting(), 1u);
  slots.release(kCheck, "user1");
  EXPECT_EQ(order.back(), "dave");
  EXPECT_EQ(slots.waiting(), 0u);
  EXPECT_EQ(slots.running(), AppQuerySlots::kAtOnce);
}

// A question that ends as soon as it starts (its executable not found) frees its slot at once,
// and the next one waiting starts from within that release.
TEST(AppQuerySlotsTest, AQuestionThatEndsAtOnceFreesItsSlotForTheNext) {
  AppQuerySlots slots;
  for (int i = 0; i < AppQuerySlots::kAtOnce; ++i) {
    EXPECT_FALSE(slots.take(kCombine, "x", [] {}));
  }
  int ended_at_once = 0;
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(slots.take(kCombine, "y", [&] {
      ++ended_at_once;
      slots.release(kCombine, "y");
    }));
  }
  EXPECT_EQ(slots.waiting(), 3u);
  slots.release(kCombine, "x");
  EXPECT_EQ(ended_at_once, 3);
  EXPECT_EQ(slots.waiting(), 0u);
  EXPECT_EQ(slots.running(), AppQuerySlots::kAtOnce - 1);
}

}  // namespace
}  // namespace drift
