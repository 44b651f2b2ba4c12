// The bulk lane runs its steps only when the event loop has nothing ready, one step at a time,
// so a timer that expires waits behind at most one step.
#include "node/net/idle_lane.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

namespace drift {
namespace {

TEST(IdleLane, ReadyHandlersGoBeforeEachStep) {
  asio::io_context io;
  IdleLane lane;
  std::vector<std::string> order;
  // Every step queues an ordinary handler: it must run before the next step.
  for (int i = 0; i < 3; ++i) {
    lane.post([&, i] {
      order.push_back("step " + std::to_string(i));
      asio::post(io, [&, i] { order.push_back("handler after step " + std::to_string(i)); });
    });
  }
  asio::post(io, [&] { order.push_back("handler"); });
  run_with_idle_lane(io, lane);
  EXPECT_EQ(order, (std::vector<std::string>{"handler", "step 0", "handler after step 0", "step 1",
                                             "handler after step 1", "step 2",
                                             "handler after step 2"}));
  EXPECT_TRUE(lane.empty());
}

TEST(IdleLane, AnExpiredTimerWaitsBehindOneStepNotTheWholeLane) {
  asio::io_context io;
  IdleLane lane;
  using Clock = std::chrono::steady_clock;
  const auto step_time = std::chrono::milliseconds(5);
  int steps_run = 0;
  int steps_before_timer = -1;
  // 40 steps of 5 ms each: 200 ms of bulk work, each step queueing the next as a transfer does.
  std::function<void()> step = [&] {
    const auto until = Clock::now() + step_time;
    while (Clock::now() < until) {
    }
    if (++steps_run < 40) lane.post(step);
  };
  lane.post(step);
  asio::steady_timer timer(io, std::chrono::milliseconds(20));
  Clock::time_point fired;
  const auto armed = Clock::now();
  timer.async_wait([&](std::error_code) {
    fired = Clock::now();
    steps_before_timer = steps_run;
  });
  run_with_idle_lane(io, lane);
  EXPECT_EQ(steps_run, 40);
  // The timer ran while bulk work was left, not after all of it.
  EXPECT_LT(steps_before_timer, 40);
  EXPECT_GE(fired - armed, std::chrono::milliseconds(20));
}

TEST(IdleLane, StopsWhenTheLoopIsStoppedEvenWithStepsLeft) {
  asio::io_context io;
  IdleLane lane;
  int steps = 0;
  lane.post([&] {
    ++steps;
    io.stop();
  });
  lane.post([&] { ++steps; });
  run_with_idle_lane(io, lane);
  EXPECT_EQ(steps, 1);
  EXPECT_EQ(lane.size(), 1u);
}

}  // namespace
}  // namespace drift
