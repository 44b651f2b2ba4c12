// The owner's load ramps up on node 2 (docs/architecture.md §9, seed 002's synthetic load generator, here
// emulated: emulate.load): its advertised capacity falls with the load, so the balancer moves
// work away before the policy acts; once the load has stayed >= 0.5 for 4 s the desktop policy
// suspends the node, vacates it 1 s later, and the node empties. The job (particles, emulated
// compute on three speed-1 machines) ends with the serial checksum.
#include <gtest/gtest.h>

#include "tests/integration/migration_harness.h"
#include "tests/integration/owner_harness.h"
#include "tests/integration/poll.h"

namespace drift::test {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

TEST_F(MigrationClusterTest, OwnerLoadRampMakesTheBalancerMoveWorkBeforeThePolicyVacates) {
  const std::vector<std::string> common = {
      "--emulate.speed=1",        "--emulate.unit_rate=2000",     "--balance.strategy=diffusion",
      "--balance.capacity=dynamic", "--balance.period_ms=300", "--balance.eff_min=0.9"};
  std::vector<std::string> node2 = common;
  // From 8 s after node 2 started, its owner's load climbs over 8 s to 2 competing processes.
  node2.push_back("--emulate.load=8:8:2");
  const auto owner = owner_args("desktop", dir_ / "unused-activity-file",
                                {"--owner.load=true", "--owner.suspend_load=0.5",
                                 "--owner.suspend_load_time=4", "--owner.max_suspend=1"});
  node2.insert(node2.end(), owner.begin(), owner.end());
  ASSERT_NO_FATAL_FAILURE(start_nodes(1, /*slot=*/58, common, {node2, common}));

  // 24 tasks of 200 particles, 0.1 s of emulated compute each per step: ~0.8 s a step.
  auto ref = reference_run(
      ctl::job_spec("particles", 24, 40, {{"cells", "240"}, {"particles", "4800"}}));
  ASSERT_TRUE(ref.is_ok()) << ref.error();
  ref->spec.runtime["placement"] = "even";
  BackgroundJob job(connect(1), ref->spec, seconds(150));
  ASSERT_TRUE(job.wait_started(seconds(20))) << "the job did not start";

  // The first time node 2 says it is no longer available, the balancer must already have sent
  // work away.
  std::optional<NodeStatus> first_unavailable;
  ASSERT_TRUE(poll_until(seconds(60), milliseconds(20), [&] {
    auto n = own_status(connect_options(2), 2);
    if (n && n->load.owner != OwnerState::kAvailable) first_unavailable = *n;
    return first_unavailable.has_value() || job.done();
  }));
  ASSERT_TRUE(first_unavailable) << "the job ended before node 2's policy acted";
  EXPECT_GT(first_unavailable->counters.balance_moves, 0u)
      << "node 2 was " << to_string(first_unavailable->load.owner)
      << " before its balancer moved anything: " << describe(first_unavailable->counters);
  EXPECT_TRUE(wait_for_owner_state(connect_options(2), 2, OwnerState::kReclaimed, seconds(30),
                                   /*empty=*/true))
      << "node 2 did not empty after its policy vacated it";

  ASSERT_TRUE(job.wait_done(seconds(150))) << "the job did not end";
  EXPECT_TRUE(ended_with_checksum(job.outcome(), ref->checksum));
}

}  // namespace
}  // namespace drift::test
