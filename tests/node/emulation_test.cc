#include "node/machine/emulation.h"

#include <gtest/gtest.h>

namespace drift {
namespace {

using EmulatorClock = Emulator::Clock;

Emulator make(double speed, double unit_rate, std::vector<LoadRamp> load = {}) {
  return Emulator(EmulationSettings{speed, unit_rate, std::move(load)},
                  EmulatorClock::time_point{});
}

void expect_error(std::string_view text, std::initializer_list<std::string> needles) {
  auto r = parse_load_ramp(text);
  ASSERT_FALSE(r.is_ok()) << "'" << text << "' parsed";
  for (const auto& n : needles) EXPECT_NE(r.error().find(n), std::string::npos) << r.error();
}

TEST(EmulationTest, ParsesARamp) {
  auto r = parse_load_ramp("30:10:2");
  ASSERT_TRUE(r.is_ok()) << r.error();
  EXPECT_EQ(*r, (LoadRamp{30, 10, 2}));
  r = parse_load_ramp("0.5:0:1.25");
  ASSERT_TRUE(r.is_ok()) << r.error();
  EXPECT_EQ(*r, (LoadRamp{0.5, 0, 1.25}));
}

TEST(EmulationTest, ParseErrorsNameTheFieldAndItsText) {
  expect_error("30:10", {"has 2 fields", "start_s:ramp_s:level"});
  expect_error("", {"has 1 field;", "start_s:ramp_s:level"});
  expect_error("1:2:3:4", {"has 4 fields"});
  expect_error("soon:10:2", {"start_s 'soon' is not a number"});
  expect_error("30::2", {"ramp_s '' is not a number"});
  expect_error("30:-1:2", {"ramp_s '-1' must be >= 0"});
  expect_error("30:10:inf", {"level 'inf' is not a number"});
  expect_error("30:10:2x", {"level '2x' is not a number"});
}

TEST(EmulationTest, NoScheduleMeansNoExternalLoad) {
  const Emulator e = make(1, 1000);
  EXPECT_EQ(e.external_load(0), 0);
  EXPECT_EQ(e.external_load(1e6), 0);
}

TEST(EmulationTest, RampRisesLinearlyThenStays) {
  const Emulator e = make(1, 1000, {{10, 20, 4}});
  EXPECT_EQ(e.external_load(0), 0);
  EXPECT_EQ(e.external_load(10), 0);
  EXPECT_DOUBLE_EQ(e.external_load(15), 1);
  EXPECT_DOUBLE_EQ(e.external_load(20), 2);
  EXPECT_DOUBLE_EQ(e.external_load(30), 4);
  EXPECT_DOUBLE_EQ(e.external_load(1000), 4);
}

TEST(EmulationTest, ZeroRampIsAStep) {
  const Emulator e = make(1, 1000, {{5, 0, 3}});
  EXPECT_EQ(e.external_load(4.999), 0);
  EXPECT_EQ(e.external_load(5), 3);
}

TEST(EmulationTest, LaterEntryTakesOverFromTheLevelReachedSoFar) {
  // The first ramp is halfway (5) when the second starts; it goes from 5 down to 0.
  const Emulator e = make(1, 1000, {{0, 10, 10}, {5, 10, 0}});
  EXPECT_DOUBLE_EQ(e.external_load(5), 5);
  EXPECT_DOUBLE_EQ(e.external_load(10), 2.5);
  EXPECT_DOUBLE_EQ(e.external_load(15), 0);
  EXPECT_DOUBLE_EQ(e.external_load(100), 0);
}

TEST(EmulationTest, LevelZeroRampsBackDown) {
  const Emulator e = make(1, 1000, {{0, 0, 2}, {10, 4, 0}});
  EXPECT_DOUBLE_EQ(e.external_load(9), 2);
  EXPECT_DOUBLE_EQ(e.external_load(12), 1);
  EXPECT_DOUBLE_EQ(e.external_load(14), 0);
}

TEST(EmulationTest, EntriesApplyInOrderOfStartAndEqualStartsLaterWins) {
  const Emulator e = make(1, 1000, {{20, 0, 1}, {0, 0, 3}, {20, 0, 5}});
  EXPECT_DOUBLE_EQ(e.external_load(10), 3);
  EXPECT_DOUBLE_EQ(e.external_load(25), 5);
}

TEST(EmulationTest, StretchIsWorkOverSpeedTimesShare) {
  const Emulator e = make(2, 1000, {{10, 0, 3}});
  EXPECT_TRUE(e.enabled());
  EXPECT_DOUBLE_EQ(e.rate(0), 2000);
  EXPECT_DOUBLE_EQ(e.stretch(1000, 0.1, 0), 0.5);  // 1000 units at 2000/s
  EXPECT_DOUBLE_EQ(e.stretch(1000, 0.8, 0), 0.8);  // already slower than the emulated machine
  // Three competing processes: a quarter of the CPU.
  EXPECT_DOUBLE_EQ(e.rate(10), 500);
  EXPECT_DOUBLE_EQ(e.stretch(1000, 0.1, 10), 2.0);
  EXPECT_DOUBLE_EQ(e.stretch(0, 0.1, 10), 0.1);
}

TEST(EmulationTest, OffByDefaultAndThenNoStretch) {
  const Emulator e(EmulationSettings{}, EmulatorClock::time_point{});
  EXPECT_FALSE(e.enabled());
  EXPECT_EQ(e.settings().unit_rate, 100000);
  EXPECT_DOUBLE_EQ(e.stretch(1e9, 0.25, 0), 0.25);
}

TEST(EmulationTest, TimeIsSecondsSinceTheDaemonStarted) {
  const EmulatorClock::time_point start = EmulatorClock::now();
  const Emulator e(EmulationSettings{1, 1000, {}}, start);
  EXPECT_DOUBLE_EQ(e.seconds_since_start(start + std::chrono::milliseconds(1500)), 1.5);
}

}  // namespace
}  // namespace drift
