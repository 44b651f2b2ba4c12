// (b) A daemon killed with SIGKILL is reported "dead" by every survivor within 3 s; how long the
// survivors take (issue 5's target: a crash detected in <= 1 s median with 100 ms heartbeats).
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <map>
#include <vector>

#include "ctl/status_query.h"
#include "tests/integration/cluster_test_fixture.h"
#include "tests/integration/poll.h"

namespace drift::test {
namespace {

using namespace std::chrono_literals;

constexpr auto kDetectionBound = 3000ms;
constexpr int kFailureDetectionVictim = 3;

class FailureDetectionTest : public ClusterTest {
 protected:
  // True once survivor `k` lists the victim as dead (a fresh connection per poll if needed).
  bool reports_dead(int k) {
    auto& connection = connections_[k];
    if (!connection) connection = connect(k);
    if (!connection) return false;
    auto reply = ctl::query_status(*connection, 500ms);
    if (!reply) {
      connection.reset();
      return false;
    }
    const NodeStatus* victim = ctl::find_node(*reply, kFailureDetectionVictim);
    return victim != nullptr && victim->member.state == MemberState::kDead;
  }

  // Kills the victim and returns, per survivor, the seconds until it reported the victim dead.
  std::map<int, double> kill_and_time(const std::vector<int>& survivors) {
    for (int k : survivors) connections_[k] = connect(k);
    EXPECT_TRUE(cluster().kill(kFailureDetectionVictim, SIGKILL).is_ok());
    const auto killed_at = std::chrono::steady_clock::now();
    std::map<int, double> detected_s;
    poll_until(kDetectionBound, 20ms, [&] {
      for (int k : survivors) {
        if (detected_s.count(k) || !reports_dead(k)) continue;
        detected_s[k] =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - killed_at).count();
      }
      return detected_s.size() == survivors.size();
    });
    for (int k : survivors) {
      if (detected_s.count(k)) {
        std::cout << "node " << k << " reported node " << kFailureDetectionVictim << " dead after "
                  << detected_s[k] << " s\n";
      }
      EXPECT_TRUE(detected_s.count(k)) << "node " << k << " did not report node "
                                       << kFailureDetectionVictim << " dead within 3 s of SIGKILL";
    }
    return detected_s;
  }

  std::map<int, std::unique_ptr<ctl::ClientConnection>> connections_;
};

TEST_F(FailureDetectionTest, SurvivorsDeclareAKilledDaemonDeadWithinThreeSeconds) {
  start_cluster(4, /*slot=*/1);
  kill_and_time({1, 2, 4});
}

// Five daemons, with load reports flowing (heartbeat histories filled) before the crash.
TEST_F(FailureDetectionTest, MedianDetectionTimeOfACrash) {
  start_cluster(5, /*slot=*/48);
  wait_for_load_reports(1);
  std::map<int, double> detected_s = kill_and_time({1, 2, 4, 5});
  ASSERT_EQ(detected_s.size(), 4u);
  std::vector<double> times;
  for (const auto& [k, s] : detected_s) times.push_back(s);
  std::sort(times.begin(), times.end());
  const double median = (times[1] + times[2]) / 2;
  std::cout << "crash detection: median " << median << " s, slowest " << times.back()
            << " s over " << times.size() << " survivors (status polled every 20 ms)\n";
  // Issue 5's target is 1 s; the bound leaves room for a machine shared with other builds.
  EXPECT_LT(median, 1.5);
}

}  // namespace
}  // namespace drift::test
