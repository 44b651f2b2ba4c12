// Checkpoints across architectures (mixed_arch_fixture.h): a foreign daemon hosting tasks is
// killed mid-job; the job rolls back to its last committed checkpoint on the survivors, so the
// copies that daemon wrote (big-endian, or 32-bit) are restored on another architecture, and it
// still ends with the serial reference's checksum. Label "cross".
#include <gtest/gtest.h>
#include <signal.h>

#include <iostream>

#include "ctl/job_client.h"
#include "tests/integration/mixed_arch_fixture.h"

namespace drift::test {
namespace {

using namespace std::chrono_literals;

constexpr std::uint64_t kCheckpointSteps = 10;
constexpr std::uint64_t kKillAtStep = 40;

class MixedArchRecoveryTest : public MixedArchTest {
 protected:
  // Runs `spec` (checkpointed every kCheckpointSteps) from node 1 and SIGKILLs node `victim` once
  // the job has done kKillAtStep steps.
  void run_killing(JobSpec spec, std::uint32_t victim) {
    spec.runtime["checkpoint_steps"] = std::to_string(kCheckpointSteps);
    spec.runtime["checkpoint_ms"] = "0";
    spec.runtime["placement"] = "even";
    auto ref = reference_run(spec);
    ASSERT_TRUE(ref) << ref.error();
    ASSERT_LE(static_cast<int>(victim), cluster_->nodes()) << "there is no node " << victim;
    auto connection = connect(1);
    ASSERT_NE(connection, nullptr);
    bool killed = false;
    std::vector<JobNotice> recoveries;
    auto end = ctl::run_job(
        *connection, ref->spec,
        [&](const JobProgress& p) {
          if (killed || p.step < kKillAtStep) return;
          ASSERT_TRUE(cluster_->kill(static_cast<int>(victim), SIGKILL));
          killed = true;
          std::cout << "  killed " << name(victim) << " at step " << p.step << "\n";
        },
        ctl::Clock::now() + 300s,
        [&](const JobNotice& n) {
          std::cout << "  notice: " << n.text << "\n";
          if (n.kind == JobNoticeKind::kRecovered) recoveries.push_back(n);
        });
    ASSERT_TRUE(end) << end.error();
    if (auto* failed = std::get_if<JobFailed>(&*end)) FAIL() << "job failed: " << failed->reason;
    ASSERT_TRUE(killed) << "the job ended before step " << kKillAtStep;
    const auto& result = std::get<JobResult>(*end);
    EXPECT_EQ(result.checksum, ref->checksum);
    EXPECT_EQ(result.recoveries, 1u);
    ASSERT_EQ(recoveries.size(), 1u);
    EXPECT_EQ(recoveries[0].node, victim);
    EXPECT_GE(recoveries[0].step, kCheckpointSteps) << "rolled back to the start, not a checkpoint";
  }
};

TEST_F(MixedArchRecoveryTest, Heat2dRestoresTheFirstForeignDaemonsCheckpoints) {
  ASSERT_NO_FATAL_FAILURE(start_mixed_cluster(/*slot=*/23));
  run_killing(ctl::job_spec("heat2d", 6, 200, {{"size", "48x36"}}), 2);
}

TEST_F(MixedArchRecoveryTest, ParticlesRestoreTheSecondForeignDaemonsCheckpoints) {
  ASSERT_NO_FATAL_FAILURE(start_mixed_cluster(/*slot=*/24));
  run_killing(ctl::job_spec("particles", 6, 200, {{"cells", "96"}, {"particles", "3000"}}), 3);
}

}  // namespace
}  // namespace drift::test
