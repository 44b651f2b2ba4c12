// node.cpu: which CPU a daemon binds to (node/machine/cpu_pin.h).
#include "node/machine/cpu_pin.h"

#include <gtest/gtest.h>
#include <sched.h>

namespace drift {
namespace {

TEST(CpuPinTest, SettingsParse) {
  EXPECT_EQ(parse_cpu_setting("auto")->kind, CpuSetting::Kind::kAuto);
  EXPECT_EQ(parse_cpu_setting("any")->kind, CpuSetting::Kind::kAny);
  const auto fixed = parse_cpu_setting("3");
  ASSERT_TRUE(fixed);
  EXPECT_EQ(fixed->kind, CpuSetting::Kind::kFixed);
  EXPECT_EQ(fixed->cpu, 3);
  for (const char* bad : {"", "-1", "1.5", "3x", "none", "99999"}) {
    EXPECT_FALSE(parse_cpu_setting(bad)) << bad;
  }
}

TEST(CpuPinTest, AutoBindsOnlyUnderAQuotaBelowOneCore) {
  const CpuSetting automatic;
  const std::vector<int> two{0, 1};
  EXPECT_FALSE(*choose_cpu(automatic, std::nullopt, two, 1));  // no quota
  EXPECT_FALSE(*choose_cpu(automatic, 1.0, two, 1));           // a whole core
  EXPECT_FALSE(*choose_cpu(automatic, 0.2, {5}, 1));           // one CPU already
  EXPECT_EQ(*choose_cpu(automatic, 0.2, two, 1), 0);
  EXPECT_EQ(*choose_cpu(automatic, 0.2, two, 2), 1);
  EXPECT_EQ(*choose_cpu(automatic, 0.2, two, 3), 0);
  // Round robin over the CPUs allowed, whatever their numbers.
  EXPECT_EQ(*choose_cpu(automatic, 0.5, {2, 5, 7}, 5), 5);
}

TEST(CpuPinTest, AnyNeverBindsAndAFixedCpuMustBeAllowed) {
  EXPECT_FALSE(*choose_cpu(*parse_cpu_setting("any"), 0.1, {0, 1}, 1));
  EXPECT_EQ(*choose_cpu(*parse_cpu_setting("1"), std::nullopt, {0, 1}, 1), 1);
  const auto refused = choose_cpu(*parse_cpu_setting("4"), 0.2, {0, 1}, 1);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("CPU 4"), std::string::npos) << refused.error();
}

TEST(CpuPinTest, TheCallingThreadCanBeBoundToAnAllowedCpu) {
  const std::vector<int> allowed = allowed_cpus();
  ASSERT_FALSE(allowed.empty());
  ASSERT_TRUE(pin_this_process(allowed.back()));
  EXPECT_EQ(allowed_cpus(), std::vector<int>{allowed.back()});
  // Back to where it was, for the tests after this one.
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int cpu : allowed) CPU_SET(cpu, &set);
  ASSERT_EQ(::sched_setaffinity(0, sizeof set, &set), 0);
  EXPECT_EQ(allowed_cpus(), allowed);
}

}  // namespace
}  // namespace drift
