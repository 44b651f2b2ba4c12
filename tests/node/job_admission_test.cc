// memory_shortfall (node/jobs/job_admission.h): when a job's stated memory fits the available
// nodes, and what the queue tells its user when it does not.
#include "node/jobs/job_admission.h"

#include <gtest/gtest.h>

namespace drift {
namespace {

constexpr std::uint64_t kMiB = 1 << 20;

TEST(JobAdmission, AJobThatStatesNothingAlwaysFits) {
  EXPECT_EQ(memory_shortfall({8, 0, "heat2d's estimate"}, {kMiB}), "");
}

TEST(JobAdmission, FitsWhenEveryTaskFitsTheirSumAndOneTaskTheLargestNode) {
  EXPECT_EQ(memory_shortfall({4, 100 * kMiB, "--memory"}, {300 * kMiB, 100 * kMiB}), "");
  EXPECT_EQ(memory_shortfall({4, 100 * kMiB, "--memory"}, {400 * kMiB}), "");
}

TEST(JobAdmission, TooLittleFreeInAllSaysHowMuchIsNeededAndOffered) {
  EXPECT_EQ(memory_shortfall({4, 100 * kMiB, "ballast's estimate"}, {200 * kMiB, 150 * kMiB}),
            "its 4 task(s) need 400 MiB (100 MiB each, ballast's estimate); the 2 available "
            "node(s) have 350 MiB free");
}

TEST(JobAdmission, OneTaskLargerThanAnyNodeWaitsEvenIfTheSumWouldDo) {
  EXPECT_EQ(memory_shortfall({2, 300 * kMiB, "--memory"}, {200 * kMiB, 200 * kMiB, 200 * kMiB}),
            "its 2 task(s) need 600 MiB (300 MiB each, --memory); the 3 available node(s) have "
            "600 MiB free, 200 MiB at most on one");
}

TEST(JobAdmission, ANodeNotHeardFromYetIsNotHeldAgainstTheJob) {
  EXPECT_EQ(memory_shortfall({4, 100 * kMiB, "--memory"}, {kMiB, 0}), "");
  EXPECT_EQ(memory_shortfall({4, 100 * kMiB, "--memory"}, {}), "");
}

}  // namespace
}  // namespace drift
