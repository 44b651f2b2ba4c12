// (b) A daemon killed with SIGKILL is reported "dead" by every survivor within 3 s.
#include <gtest/gtest.h>
#include <signal.h>

#include <map>

#include "node/ctl/status_query.h"
#include "tests/integration/cluster_test_fixture.h"
#include "tests/integration/poll.h"

namespace drift::test {
namespace {

using namespace std::chrono_literals;

constexpr auto kDetectionBound = 3000ms;
constexpr int kVictim = 3;

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
    const NodeStatus* victim = ctl::find_node(*reply, kVictim);
    return victim != nullptr && victim->member.state == MemberState::kDead;
  }

  std::map<int, std::unique_ptr<ctl::ClientConnection>> connections_;
};

TEST_F(FailureDetectionTest, SurvivorsDeclareAKilledDaemonDeadWithinThreeSeconds) {
  start_cluster(4, /*slot=*/1);
  for (int k : {1, 2, 4}) connections_[k] = connect(k);
  ASSERT_TRUE(cluster().kill(kVictim, SIGKILL).is_ok());
  const auto killed_at = std::chrono::steady_clock::now();

  std::map<int, double> detected_s;
  poll_until(kDetectionBound, 50ms, [&] {
    for (int k : {1, 2, 4}) {
      if (detected_s.count(k) || !reports_dead(k)) continue;
      detected_s[k] =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - killed_at).count();
    }
    return detected_s.size() == 3;
  });
  for (int k : {1, 2, 4}) {
    if (detected_s.count(k)) {
      std::cout << "node " << k << " reported node " << kVictim << " dead after " << detected_s[k]
                << " s\n";
    }
    EXPECT_TRUE(detected_s.count(k))
        << "node " << k << " did not report node " << kVictim << " dead within 3 s of SIGKILL";
  }
}

}  // namespace
}  // namespace drift::test
