// Failures one after another must never lose a job, however many there are (issue: a soak lost
// a job after two root failures 50 s apart). A job submitted without a client to follow it
// loses its root three times — killed, paused until declared dead, killed again — each after
// the previous new root has taken it over and a checkpoint has passed; it ends with the serial
// checksum, and its result is fetched afterwards from whichever node is its root then.
#include <gtest/gtest.h>
#include <signal.h>

#include <iostream>
#include <set>

#include "ctl/job_client.h"
#include "ctl/job_control.h"
#include "tests/integration/cluster_test_fixture.h"
#include "tests/integration/poll.h"

namespace drift::test {
namespace {

using namespace std::chrono_literals;

constexpr int kRootChainSlot = 44;
constexpr int kRootChainNodes = 6;

TEST_F(ClusterTest, ThreeRootFailuresOneAfterAnotherLoseNoJob) {
  ASSERT_NO_FATAL_FAILURE(start_cluster(kRootChainNodes, kRootChainSlot));
  wait_for_load_reports(1);
  // Long enough that it cannot end between two looks at it, even while a look waits out the
  // timeout of a stopped member (the job does ~300 steps a second here).
  JobSpec spec = ctl::job_spec("heat2d", 12, 1800, {{"size", "192x192"}});
  spec.runtime["checkpoint_steps"] = "20";
  spec.runtime["checkpoint_ms"] = "0";
  auto serial = reference_run(spec);
  ASSERT_TRUE(serial.is_ok()) << serial.error();
  spec = serial->spec;
  auto submitter = connect(1);
  ASSERT_NE(submitter, nullptr);
  auto accepted = ctl::submit_job(*submitter, spec, ctl::Clock::now() + 30s);
  ASSERT_TRUE(accepted.is_ok()) << accepted.error();
  submitter.reset();  // nobody follows the job
  const std::uint64_t id = accepted->job;

  std::set<int> dead;
  std::string seen;  // what the last look found, for a failure's message
  // The job as the cluster lists it, asked of a member not failed; nullopt if none lists it.
  auto entry = [&]() -> std::optional<JobEntry> {
    int asked = 1;
    while (dead.count(asked)) ++asked;
    auto jobs = ctl::cluster_jobs(connect_options(asked), true, 1s);
    if (!jobs) {
      seen = "asking node " + std::to_string(asked) + ": " + jobs.error();
      return std::nullopt;
    }
    seen = "node " + std::to_string(asked) + " lists no such job";
    for (const std::string& u : jobs->unreachable) seen += "; could not ask " + u;
    for (const JobEntry& e : jobs->jobs) {
      if (e.job != id) continue;
      seen = "root " + std::to_string(e.root) + ", " + to_string(e.state) + ", step " +
             std::to_string(e.step) + (e.reason.empty() ? "" : ", " + e.reason);
      return e;
    }
    return std::nullopt;
  };
  std::uint64_t step = 0;
  std::uint32_t root = 1;
  for (int failure = 0; failure < 3; ++failure) {
    // A checkpoint (every 20 steps) has passed under the current root.
    const std::uint64_t after = step + 60;
    ASSERT_TRUE(poll_until(60s, 100ms, [&] {
      auto e = entry();
      if (!e || e->root != root || e->state != JobState::kRunning) return false;
      step = e->step;
      return step >= after;
    })) << "failure " << failure << ": the job did not reach step " << after << " under node "
        << root << " (last seen: " << seen << ")";
    const bool pause = failure == 1;
    std::cout << (pause ? "pausing" : "killing") << " root node " << root << " at step " << step
              << "\n";
    ASSERT_TRUE(cluster().kill(static_cast<int>(root), pause ? SIGSTOP : SIGKILL).is_ok());
    dead.insert(static_cast<int>(root));
    const std::uint32_t old_root = root;
    ASSERT_TRUE(poll_until(60s, 100ms, [&] {
      auto e = entry();
      if (!e || e->root == old_root || ended(e->state)) return false;
      root = e->root;
      return true;
    })) << "failure " << failure << ": no node took the job over from node " << old_root
        << " (last seen: " << seen << ")";
    std::cout << "node " << root << " took the job over\n";
    if (pause) {
      ASSERT_TRUE(cluster().kill(static_cast<int>(old_root), SIGCONT).is_ok());
    }
  }
  std::optional<JobEntry> last;
  ASSERT_TRUE(poll_until(90s, 200ms, [&] {
    last = entry();
    return last && ended(last->state);
  })) << "the job did not end (last seen: " << seen << ")";
  EXPECT_EQ(last->state, JobState::kDone) << last->reason;
  int asked = 1;
  while (dead.count(asked)) ++asked;
  auto found = ctl::find_job(connect_options(asked), id, 5s);
  ASSERT_TRUE(found.is_ok()) << found.error();
  auto connection = ctl::ClientConnection::open(found->root);
  ASSERT_TRUE(connection.is_ok()) << connection.error();
  auto end = ctl::attach_job(**connection, id, "heat2d", nullptr, ctl::Clock::now() + 10s);
  ASSERT_TRUE(end.is_ok()) << end.error();
  ASSERT_TRUE(std::holds_alternative<JobResult>(*end)) << std::get<JobFailed>(*end).reason;
  EXPECT_EQ(std::get<JobResult>(*end).checksum, serial->checksum);
  EXPECT_EQ(std::get<JobResult>(*end).recoveries, 3u);
}

}  // namespace
}  // namespace drift::test
