// cpu_quota: which cgroup binds the cpu controller (v1 before v2), the quota texts of both
// versions, and the smallest quota on the path of a real directory tree standing for the cgroup
// filesystem; quota_external_load: other programs count only when they leave less than the quota.
#include "node/machine/cpu_quota.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "node/machine/external_load.h"

namespace drift {
namespace {

TEST(CpuQuota, TheCpuControllersCgroupIsFoundInV1ElseV2) {
  auto v1 = cpu_cgroup_of("12:memory:/m\n5:cpu,cpuacct:/drift-fault-1/node3\n0::/user.slice\n");
  ASSERT_TRUE(v1);
  EXPECT_FALSE(v1->v2);
  EXPECT_EQ(v1->path, "/drift-fault-1/node3");
  auto v2 = cpu_cgroup_of("0::/system.slice/driftd.service\n");
  ASSERT_TRUE(v2);
  EXPECT_TRUE(v2->v2);
  EXPECT_EQ(v2->path, "/system.slice/driftd.service");
  EXPECT_FALSE(cpu_cgroup_of("7:cpuset:/x\n"));  // cpuset is not cpu
  EXPECT_FALSE(cpu_cgroup_of("garbage"));
  EXPECT_FALSE(cpu_cgroup_of(""));
}

TEST(CpuQuota, QuotaTextsOfBothVersions) {
  EXPECT_DOUBLE_EQ(*parse_cpu_max("20000 100000\n"), 0.2);
  EXPECT_DOUBLE_EQ(*parse_cpu_max("150000 100000"), 1.5);
  EXPECT_FALSE(parse_cpu_max("max 100000\n"));
  EXPECT_FALSE(parse_cpu_max("20000"));
  EXPECT_FALSE(parse_cpu_max("0 100000"));
  EXPECT_DOUBLE_EQ(*parse_cfs_quota("4000\n", "20000\n"), 0.2);
  EXPECT_FALSE(parse_cfs_quota("-1\n", "100000\n"));
  EXPECT_FALSE(parse_cfs_quota("", "100000"));
  EXPECT_FALSE(parse_cfs_quota("4000", "0"));
}

// Other programs on the machine slow a quota'd node only when they leave less than its quota.
TEST(CpuQuota, OthersCountOnlyWhenTheyLeaveLessThanTheQuota) {
  // 8 daemons with quotas summing 1.75 of 2 cores: the others use 1.5 cores, 0.5 free >= 0.25.
  EXPECT_DOUBLE_EQ(quota_external_load(0.75, 2, 0.25), 0);
  // An owner's compile takes 1.9 of 2 cores: 0.1 free for a quota of 0.5: 5x slower.
  EXPECT_NEAR(quota_external_load(0.95, 2, 0.5), 4.0, 1e-9);
  // No quota that binds (>= the cores): the external load as it is.
  EXPECT_DOUBLE_EQ(quota_external_load(0.7, 2, 2.0), 0.7);
  EXPECT_DOUBLE_EQ(quota_external_load(0.7, 2, 0), 0.7);
  // Everything taken: bounded, not infinite.
  EXPECT_NEAR(quota_external_load(1.0, 2, 0.5), 19.0, 1e-9);
}

}  // namespace
}  // namespace drift
