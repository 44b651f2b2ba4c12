// A hostile but authenticated peer (peer_fuzzer.h) sends node 3 a fixed number of frames of
// every message type, valid and mutated. Meanwhile jobs run on nodes 1 and 2
// (node 3 is reclaimed: it gets no tasks). No daemon may die, node 3's memory must stay
// bounded, and every job must end with its serial checksum.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "ctl/job_client.h"
#include "ctl/owner_client.h"
#include "ctl/status_query.h"
#include "tests/integration/cluster_test_fixture.h"
#include "tests/integration/peer_fuzzer.h"
#include "tests/integration/proc_status.h"

namespace drift::test {
namespace {

using namespace std::chrono_literals;

constexpr int kPeerFuzzSlot = 40;
constexpr int kFrames = 20000;

TEST_F(ClusterTest, AnAuthenticatedPeerSendingAnythingKillsNoDaemonAndNoJob) {
  ASSERT_NO_FATAL_FAILURE(start_cluster(3, kPeerFuzzSlot));
  wait_for_load_reports(1);
  auto reclaimed = ctl::request_owner_action(connect_options(3), OwnerAction::kReclaim,
                                             ctl::Clock::now() + 5s);
  ASSERT_TRUE(reclaimed.is_ok()) << reclaimed.error();
  auto member = ctl::ClientConnection::open(connect_options(3));
  ASSERT_TRUE(member.is_ok()) << member.error();
  const std::string cluster_name = (*member)->daemon_hello().cluster;
  member->reset();
  const long rss_before = proc_status_field(cluster().pid(3), "VmRSS:");

  JobSpec spec = ctl::job_spec("heat2d", 4, 60, {{"size", "96x96"}});
  auto serial = reference_run(spec);
  ASSERT_TRUE(serial.is_ok()) << serial.error();
  spec = serial->spec;

  std::atomic<bool> fuzzing{true};
  Result<int> fuzzed = Status::error("not run");
  std::thread fuzzer([&] {
    PeerFuzzer f(cluster().node_endpoint(3), connect_options(3).secret, cluster_name);
    auto watcher = ctl::ClientConnection::open(connect_options(3));
    if (!watcher) {
      fuzzed = watcher.status();
    } else {
      fuzzed = f.run(kFrames, [&] { return refusals_of(**watcher, 3); });
    }
    fuzzing = false;
  });
  int jobs = 0;
  std::string job_error;
  while (fuzzing && job_error.empty()) {
    auto connection = connect(1);
    if (!connection) {
      job_error = "node 1 took no connection";
      break;
    }
    auto end = ctl::run_job(*connection, spec, nullptr, ctl::Clock::now() + 60s);
    ++jobs;
    if (!end) {
      job_error = end.error();
    } else if (auto* failed = std::get_if<JobFailed>(&*end)) {
      job_error = "job failed: " + failed->reason;
    } else if (std::get<JobResult>(*end).checksum != serial->checksum) {
      job_error = "job " + std::to_string(jobs) + ": checksum " + std::get<JobResult>(*end).checksum;
    }
  }
  fuzzer.join();
  ASSERT_TRUE(fuzzed.is_ok()) << fuzzed.error();
  std::cout << kFrames << " frames over " << *fuzzed << " connections; " << jobs
            << " jobs meanwhile\n";
  EXPECT_TRUE(job_error.empty()) << job_error;
  EXPECT_GT(jobs, 0);
  for (int k = 1; k <= 3; ++k) {
    auto status = ctl::query_status(connect_options(k), 5s);
    EXPECT_TRUE(status.is_ok()) << "node " << k << ": " << (status ? "" : status.error());
  }
  const long rss_after = proc_status_field(cluster().pid(3), "VmRSS:");
  std::cout << "node 3: " << rss_before << " KiB before, " << rss_after << " KiB after\n";
  EXPECT_GT(rss_after, 0) << "node 3 is gone";
  EXPECT_LT(rss_after, rss_before + 256 * 1024) << "node 3's memory grew by more than 256 MiB";
}

}  // namespace
}  // namespace drift::test
