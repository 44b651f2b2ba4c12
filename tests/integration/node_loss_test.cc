// (d) A job that loses a node hosting its tasks ends with JobFailed naming that node, promptly,
// instead of hanging. (Recovery from checkpoints is a later issue; then this job will finish.)
#include <gtest/gtest.h>
#include <signal.h>

#include "node/ctl/job_client.h"
#include "node/ctl/status_query.h"
#include "tests/integration/cluster_test_fixture.h"
#include "tests/integration/poll.h"

namespace drift::test {
namespace {

using namespace std::chrono_literals;

class NodeLossTest : public ClusterTest {
 protected:
  // A node other than the root (1) that hosts tasks of the running job, as the root reports it
  // (load indices arrive with heartbeats, so this may take a moment); 0 if none does.
  int find_victim() {
    int victim = 0;
    poll_until(5s, 50ms, [&] {
      auto reply = ctl::query_status(connect_options(1), 2s);
      if (!reply) return false;
      for (const auto& n : reply->nodes) {
        if (n.member.node_id != 1 && n.load.task_count > 0) {
          victim = static_cast<int>(n.member.node_id);
        }
      }
      return victim != 0;
    });
    return victim;
  }
};

bool names_node(const std::string& reason, int k, const std::string& address) {
  const std::string id = std::to_string(k);
  return reason.find("node " + id) != std::string::npos ||
         reason.find("node" + id) != std::string::npos || reason.find(address) != std::string::npos;
}

TEST_F(NodeLossTest, JobFailsNamingTheLostNode) {
  start_cluster(4, /*slot=*/3);
  wait_for_load_reports(1);
  auto connection = connect(1);
  ASSERT_NE(connection, nullptr);
  // Long enough that it is still running when a node is killed after its first progress report.
  const JobSpec spec = ctl::job_spec("heat2d", 16, 1000000, {{"size", "512x512"}});
  int victim = 0;
  bool tried = false;
  ctl::Clock::time_point killed_at{};
  auto end = ctl::run_job(
      *connection, spec,
      [&](const JobProgress&) {
        if (tried) return;
        tried = true;
        victim = find_victim();
        ASSERT_NE(victim, 0) << "no node but the root reports tasks of the job";
        ASSERT_TRUE(cluster().kill(victim, SIGKILL).is_ok());
        killed_at = ctl::Clock::now();
      },
      ctl::Clock::now() + 40s);
  ASSERT_TRUE(end.is_ok()) << end.error() << " (a job that lost a node must end, not hang)";
  ASSERT_TRUE(tried) << "the job ended before its first progress report";
  ASSERT_NE(victim, 0);
  ASSERT_TRUE(std::holds_alternative<JobFailed>(*end))
      << "the job finished despite losing node " << victim;
  const auto& failed = std::get<JobFailed>(*end);
  const double after_s = std::chrono::duration<double>(ctl::Clock::now() - killed_at).count();
  std::cout << "job failed " << after_s << " s after node " << victim
            << " was killed: " << failed.reason << "\n";
  EXPECT_TRUE(names_node(failed.reason, victim, cluster().node_endpoint(victim).to_string()))
      << "reason does not name node " << victim << ": " << failed.reason;
  EXPECT_LT(after_s, 15.0);
  for (int k = 1; k <= 4; ++k) {
    if (k == victim) continue;
    EXPECT_EQ(fate_of(k), "running") << "node " << k << " did not survive node " << victim;
  }
  auto reply = ctl::query_status(connect_options(1), 2s);
  EXPECT_TRUE(reply.is_ok()) << "the root stopped answering after the job failed: "
                             << reply.error();
}

}  // namespace
}  // namespace drift::test
