// EffectsHold (sdk/effects_hold.h): a report waits while handlers of the worker are still under
// way and goes, with the others held, when the last one is done; nothing waits on an idle worker;
// what is held comes out in order before a frame that must not overtake it; at most kMaxHeld
// wait; they go kQuiet after the last report (a long handler does not hold back the others'),
// and kMaxAge after the first at the latest.
#include "sdk/effects_hold.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <vector>

namespace drift {
namespace {

Frame numbered(std::uint8_t n) { return make_frame({n}); }

std::vector<std::uint8_t> numbers(const std::vector<Frame>& frames) {
  std::vector<std::uint8_t> out;
  for (const Frame& f : frames) out.push_back(f.head->at(0));
  return out;
}

struct Fixture {
  asio::io_context io;
  std::vector<std::vector<Frame>> writes;  // each call of Send: one write to the daemon
  EffectsHold hold{io, [this](std::vector<Frame> frames) { writes.push_back(std::move(frames)); }};
};

TEST(EffectsHold, ReportsWaitForTheLastHandlerAndGoInOneWrite) {
  Fixture f;
  f.hold.posted();
  f.hold.posted();
  f.hold.posted();
  Frame a = numbered(1), b = numbered(2);
  EXPECT_TRUE(f.hold.hold(a));
  f.hold.done();
  f.hold.release_if_idle();
  EXPECT_TRUE(f.hold.hold(b));
  f.hold.done();
  f.hold.release_if_idle();
  EXPECT_TRUE(f.writes.empty()) << "sent while a handler was still under way";
  f.hold.done();  // the last one
  f.hold.release_if_idle();
  ASSERT_EQ(f.writes.size(), 1u);
  EXPECT_EQ(numbers(f.writes[0]), (std::vector<std::uint8_t>{1, 2}));
  EXPECT_TRUE(f.hold.empty());
}

TEST(EffectsHold, NothingWaitsOnAnIdleWorker) {
  Fixture f;
  Frame a = numbered(1);
  EXPECT_FALSE(f.hold.hold(a));
  EXPECT_TRUE(f.hold.empty());
  f.hold.done();  // more done() than posted(): no harm
  f.hold.posted();
  f.hold.done();
  f.hold.release_if_idle();
  Frame b = numbered(2);
  EXPECT_FALSE(f.hold.hold(b));
  EXPECT_TRUE(f.writes.empty());
}

TEST(EffectsHold, WhatIsHeldComesOutInOrderBeforeAnUrgentFrame) {
  Fixture f;
  f.hold.posted();
  for (std::uint8_t n : {1, 2, 3}) {
    Frame r = numbered(n);
    ASSERT_TRUE(f.hold.hold(r));
  }
  std::vector<Frame> out;
  f.hold.take(out);
  out.push_back(numbered(4));
  EXPECT_EQ(numbers(out), (std::vector<std::uint8_t>{1, 2, 3, 4}));
  EXPECT_TRUE(f.hold.empty());
  f.hold.done();
  f.hold.release_if_idle();
  EXPECT_TRUE(f.writes.empty()) << "taken reports were sent again";
}

TEST(EffectsHold, AtMostMaxHeldWait) {
  Fixture f;
  f.hold.posted();
  for (std::size_t i = 0; i < EffectsHold::kMaxHeld; ++i) {
    Frame r = numbered(static_cast<std::uint8_t>(i));
    ASSERT_TRUE(f.hold.hold(r));
  }
  ASSERT_EQ(f.writes.size(), 1u);
  EXPECT_EQ(f.writes[0].size(), EffectsHold::kMaxHeld);
  EXPECT_TRUE(f.hold.empty());
}

TEST(EffectsHold, ALongHandlerHoldsTheOthersReportsNoLongerThanQuiet) {
  Fixture f;
  f.hold.posted();  // never done: a handler that runs on and on
  const auto began = EffectsHold::Clock::now();
  Frame a = numbered(7);
  ASSERT_TRUE(f.hold.hold(a));
  while (f.writes.empty()) f.io.run_one();  // the timer
  const auto waited = EffectsHold::Clock::now() - began;
  ASSERT_EQ(f.writes.size(), 1u);
  EXPECT_EQ(numbers(f.writes[0]), (std::vector<std::uint8_t>{7}));
  EXPECT_GE(waited, EffectsHold::kQuiet);
}

// Reports that keep coming (handlers that never run out) wait no longer than kMaxAge; the write
// comes when the rule says: kQuiet after the last report, or kMaxAge after the first.
TEST(EffectsHold, ReportsThatKeepComingGoAfterMaxAge) {
  Fixture f;
  f.hold.posted();
  const auto first = EffectsHold::Clock::now();
  auto last = first;
  std::uint8_t n = 0;
  while (f.writes.empty()) {
    Frame r = numbered(n++);
    last = EffectsHold::Clock::now();
    ASSERT_TRUE(f.hold.hold(r));
    // About a fifth of kQuiet between two reports (the timer's handler runs meanwhile).
    const auto until = last + EffectsHold::kQuiet / 5;
    while (f.writes.empty() && EffectsHold::Clock::now() < until) f.io.poll();
    f.io.restart();
    ASSERT_LT(EffectsHold::Clock::now() - first, 10 * EffectsHold::kMaxAge) << "never sent";
  }
  const auto sent = EffectsHold::Clock::now();
  EXPECT_TRUE(sent - last >= EffectsHold::kQuiet || sent - first >= EffectsHold::kMaxAge)
      << "sent after " << std::chrono::duration<double, std::milli>(sent - first).count()
      << " ms, " << std::chrono::duration<double, std::milli>(sent - last).count()
      << " ms after the last report";
  EXPECT_GT(f.writes[0].size(), 1u);
}

}  // namespace
}  // namespace drift
