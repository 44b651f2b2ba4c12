#include "node/machine/emulated_compute.h"

#include <gtest/gtest.h>

#include <thread>

#include <chrono>

namespace drift {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Lower bounds are exact (sleep_until never wakes early); upper bounds leave 5x for a busy
// machine, so these cannot flake.
TEST(EmulatedComputeTest, StretchesWallTimeToTheEmulatedSpeed) {
  const Emulator e(EmulationSettings{2, 1000, {}}, Clock::now());
  int calls = 0;
  const Clock::time_point begin = Clock::now();
  const ComputeTime t = emulated_compute(&e, 100, [&] { ++calls; });  // 100 / 2000 = 50 ms
  const double wall = seconds_since(begin);
  EXPECT_EQ(calls, 1);
  EXPECT_GE(t.wall_s, 0.05);
  EXPECT_LT(t.wall_s, 0.25);
  EXPECT_GE(wall, t.wall_s);
  EXPECT_EQ(t.cpu_s, t.wall_s);  // emulated: the machine's speed is the stretched time
}

TEST(EmulatedComputeTest, ExternalLoadTakesItsShare) {
  const Emulator e(EmulationSettings{1, 1000, {{0, 0, 1}}}, Clock::now());  // half the CPU
  const double busy = emulated_compute(&e, 40, [] {}).wall_s;               // 40 / 500 = 80 ms
  EXPECT_GE(busy, 0.08);
  EXPECT_LT(busy, 0.4);
}

TEST(EmulatedComputeTest, RealMachineRunsAtFullSpeed) {
  int calls = 0;
  const double busy = emulated_compute(nullptr, 1e9, [&] { ++calls; }).wall_s;
  EXPECT_EQ(calls, 1);
  EXPECT_LT(busy, 0.05);
  const Emulator off(EmulationSettings{}, Clock::now());
  EXPECT_LT(emulated_compute(&off, 1e9, [] {}).wall_s, 0.05);
}

// On a real machine the CPU time is measured apart: a compute that sleeps got almost none.
TEST(EmulatedComputeTest, ARealComputeReportsTheCpuTimeItGot) {
  const ComputeTime sleeping = emulated_compute(nullptr, 1, [] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
  });
  EXPECT_GE(sleeping.wall_s, 0.03);
  EXPECT_LT(sleeping.cpu_s, 0.01);
  const ComputeTime spinning = emulated_compute(nullptr, 1, [] {
    const auto until = Clock::now() + std::chrono::milliseconds(20);
    while (Clock::now() < until) {
    }
  });
  EXPECT_GT(spinning.cpu_s, 0.0);  // on a loaded machine it may get much less than the wall
  EXPECT_LE(spinning.cpu_s, spinning.wall_s + 0.002);
}

TEST(EmulatedComputeTest, BenchmarkMeasuresTheEmulatedRate) {
  const Emulator e(EmulationSettings{2, 1000, {}}, Clock::now());
  const double rate = emulated_benchmark(e, 0.02);
  EXPECT_LE(rate, 2000 * (1 + 1e-9));  // never faster than emulated
  EXPECT_GT(rate, 2000 / 5.0);
}

}  // namespace
}  // namespace drift
