// job_binaries: a job's own executables by architecture, read from its "binary.ARCH" runtime
// keys (checked: a known architecture, a SHA-256); runs_on: which nodes can take its tasks.
#include "node/workers/job_binaries.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace drift {
namespace {

const std::string kShaX86(64, 'a');
const std::string kShaArm(64, 'b');

JobSpec spec_with_runtime(std::map<std::string, std::string> runtime) {
  JobSpec spec;
  spec.app = "heat2d";
  spec.tasks = 4;
  spec.steps = 10;
  spec.runtime = std::move(runtime);
  return spec;
}

TEST(JobBinaries, AnInstalledApplicationHasNone) {
  auto binaries = job_binaries(spec_with_runtime({{"chaos_migrations", "3"}}));
  ASSERT_TRUE(binaries) << binaries.error();
  EXPECT_TRUE(binaries->empty());
}

TEST(JobBinaries, ReadsOneHashPerArchitectureAndIgnoresOtherKeys) {
  auto binaries = job_binaries(spec_with_runtime(
      {{"binary.x86_64", kShaX86}, {"binary.aarch64", kShaArm}, {"chaos_migrations", "3"},
       {"binaryx86_64", "not a hash"}}));
  ASSERT_TRUE(binaries) << binaries.error();
  EXPECT_EQ(*binaries, (std::map<std::string, std::string>{{"aarch64", kShaArm},
                                                             {"x86_64", kShaX86}}));
}

TEST(JobBinaries, RefusesAnUnknownArchitectureNamingTheKey) {
  auto binaries = job_binaries(spec_with_runtime({{"binary.sparc64", kShaX86}}));
  ASSERT_FALSE(binaries);
  EXPECT_EQ(binaries.error(), "binary.sparc64: 'sparc64' is no architecture drift knows");
  EXPECT_FALSE(job_binaries(spec_with_runtime({{"binary.", kShaX86}})));
  EXPECT_FALSE(job_binaries(spec_with_runtime({{"binary.X86_64", kShaX86}})));
}

TEST(JobBinaries, RefusesAValueThatIsNoSha256NamingTheKeyAndValue) {
  auto binaries = job_binaries(spec_with_runtime({{"binary.x86_64", "abc"}}));
  ASSERT_FALSE(binaries);
  EXPECT_EQ(binaries.error(), "binary.x86_64 = 'abc': not a SHA-256");
  const std::string upper(64, 'A');
  auto uppercase = job_binaries(spec_with_runtime({{"binary.i386", upper}}));
  ASSERT_FALSE(uppercase);
  EXPECT_NE(uppercase.error().find("binary.i386"), std::string::npos) << uppercase.error();
}

TEST(JobBinaries, OneBadKeyRefusesTheWholeSpec) {
  EXPECT_FALSE(job_binaries(
      spec_with_runtime({{"binary.x86_64", kShaX86}, {"binary.riscv64", "short"}})));
}

TEST(RunsOn, AnInstalledApplicationRunsOnEveryNode) {
  const JobSpec spec = spec_with_runtime({});
  EXPECT_TRUE(runs_on(spec, "x86_64"));
  EXPECT_TRUE(runs_on(spec, "s390x"));
  EXPECT_TRUE(runs_on(spec, "unknown"));
}

TEST(RunsOn, AJobsOwnExecutableRunsOnlyOnItsArchitectures) {
  const JobSpec spec = spec_with_runtime({{"binary.x86_64", kShaX86}, {"binary.aarch64", kShaArm}});
  EXPECT_TRUE(runs_on(spec, "x86_64"));
  EXPECT_TRUE(runs_on(spec, "aarch64"));
  EXPECT_FALSE(runs_on(spec, "i386"));
  EXPECT_FALSE(runs_on(spec, "s390x"));
}

TEST(RunsOn, ASpecWithABadBinaryKeyRunsNowhere) {
  const JobSpec spec = spec_with_runtime({{"binary.x86_64", "bad"}});
  EXPECT_FALSE(runs_on(spec, "x86_64"));
  EXPECT_FALSE(runs_on(spec, "aarch64"));
}

}  // namespace
}  // namespace drift
