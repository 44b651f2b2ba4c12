#include "node/machine/emulated_compute.h"

#include <gtest/gtest.h>

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
  const double busy = emulated_compute(&e, 100, [&] { ++calls; });  // 100 / 2000 = 50 ms
  const double wall = seconds_since(begin);
  EXPECT_EQ(calls, 1);
  EXPECT_GE(busy, 0.05);
  EXPECT_LT(busy, 0.25);
  EXPECT_GE(wall, busy);
}

TEST(EmulatedComputeTest, ExternalLoadTakesItsShare) {
  const Emulator e(EmulationSettings{1, 1000, {{0, 0, 1}}}, Clock::now());  // half the CPU
  const double busy = emulated_compute(&e, 40, [] {});                      // 40 / 500 = 80 ms
  EXPECT_GE(busy, 0.08);
  EXPECT_LT(busy, 0.4);
}

TEST(EmulatedComputeTest, RealMachineRunsAtFullSpeed) {
  int calls = 0;
  const double busy = emulated_compute(nullptr, 1e9, [&] { ++calls; });
  EXPECT_EQ(calls, 1);
  EXPECT_LT(busy, 0.05);
  const Emulator off(EmulationSettings{}, Clock::now());
  EXPECT_LT(emulated_compute(&off, 1e9, [] {}), 0.05);
}

TEST(EmulatedComputeTest, BenchmarkMeasuresTheEmulatedRate) {
  const Emulator e(EmulationSettings{2, 1000, {}}, Clock::now());
  const double rate = emulated_benchmark(e, 0.02);
  EXPECT_LE(rate, 2000 * (1 + 1e-9));  // never faster than emulated
  EXPECT_GT(rate, 2000 / 5.0);
}

}  // namespace
}  // namespace drift
