// A worker is the job's own code, and the daemon believes nothing it says without checking it
// (tests/apps/forger: a worker that speaks the protocol itself and lies). Checkpoint pieces whose
// announced sizes wrap a sum, or that bring more bytes than any size announced, end that worker
// — never the daemon, and never by memory the daemon holds for it; a worker's word about a task
// it does not run goes no further.
#include <gtest/gtest.h>

#include "tests/integration/poll.h"
#include "tests/integration/proc_status.h"
#include "tests/integration/worker_fixture.h"

namespace drift::test {
namespace {

using namespace std::chrono_literals;

class ForgedWorkerTest : public WorkerTest {
 protected:
  // A 4-task job of forger, whose workers do `how`.
  Run run_forged(const std::string& how) {
    return run_own(forger(), ctl::job_spec("forger", 4, 1, {{"forge", how}}));
  }

  void expect_failed_naming(const Run& run, const std::string& what) {
    ASSERT_TRUE(run.end.is_ok()) << run.end.error();
    ASSERT_TRUE(std::holds_alternative<JobFailed>(*run.end))
        << "the job finished: " << std::get<JobResult>(*run.end).checksum;
    const std::string& reason = std::get<JobFailed>(*run.end).reason;
    EXPECT_NE(reason.find(what), std::string::npos) << reason;
  }

  // A job of `how` ends with the serial checksum.
  void expect_serial_checksum(const std::string& how) {
    JobSpec spec = ctl::job_spec("forger", 4, 1, {{"forge", how}});
    Run run = run_own(forger(), spec);
    ASSERT_TRUE(run.end.is_ok()) << run.end.error();
    ASSERT_TRUE(std::holds_alternative<JobResult>(*run.end))
        << std::get<JobFailed>(*run.end).reason;
    EXPECT_EQ(std::get<JobResult>(*run.end).checksum, own_serial(forger(), spec));
  }

  void expect_daemons_serve() {
    EXPECT_EQ(fate_of(1), "running");
    EXPECT_EQ(fate_of(2), "running");
    EXPECT_TRUE(run_own(forger(), ctl::job_spec("forger", 4, 1, {{"forge", "honest"}}))
                    .end.is_ok());
  }
};

TEST_F(ForgedWorkerTest, AnHonestForgerFinishesWithTheSerialChecksum) {
  ASSERT_NO_FATAL_FAILURE(start(2, 60));
  expect_serial_checksum("honest");
}

// Sizes of 100 and 2^64 - 5 bytes sum to 95: that once passed the bound, and reserving 2^64 - 5
// bytes threw out of the network thread and ended both daemons.
TEST_F(ForgedWorkerTest, CheckpointSizesThatWrapTheirSumEndTheWorkerNotTheDaemon) {
  ASSERT_NO_FATAL_FAILURE(start(2, 61));
  Run run = run_forged("overflow");
  expect_failed_naming(run, "checkpoints at once may have");
  expect_daemons_serve();
}

// Only a task's first piece was held to the bound: later pieces announcing a larger state
// brought 64 MiB into each daemon, and more for as long as the worker sent them.
TEST_F(ForgedWorkerTest, CheckpointBytesBeyondTheAnnouncedSizeEndTheWorker) {
  ASSERT_NO_FATAL_FAILURE(start(2, 62));
  const long rss_before = proc_status_field(cluster().pid(1), "VmRSS:");
  Run run = run_forged("grow");
  expect_failed_naming(run, "of a state of 100");
  if (kRssIsMeaningful) {
    const long grown_kb = proc_status_field(cluster().pid(1), "VmRSS:") - rss_before;
    EXPECT_LT(grown_kb, 32 * 1024) << "node 1 grew by " << grown_kb << " kB";
  }
  expect_daemons_serve();
}

// Each worker also finishes the other worker's tasks with a wrong digest, before the worker
// that runs them does: those results once made the job's checksum.
TEST_F(ForgedWorkerTest, AWorkersWordAboutATaskItDoesNotRunGoesNoFurther) {
  ASSERT_NO_FATAL_FAILURE(start(2, 63));
  expect_serial_checksum("claim");
}

}  // namespace
}  // namespace drift::test
