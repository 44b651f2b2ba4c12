// The post-handshake fuzzer (peer_fuzzer.h) against every foreign daemon of the mixed cluster
// (mixed_arch_fixture.h: in CI a big-endian s390x and a 32-bit i386 driftd under qemu-user),
// whose lengths and counts are where 2^32 ± k and 2^40 bite: each takes a fixed number of valid
// and mutated frames of every message type and must still answer its status, and a heat2d job
// across all daemons afterwards ends with its serial checksum. Label "cross".
#include <gtest/gtest.h>

#include <iostream>

#include "ctl/job_client.h"
#include "ctl/status_query.h"
#include "tests/integration/mixed_arch_fixture.h"
#include "tests/integration/peer_fuzzer.h"
#include "tests/integration/poll.h"

namespace drift::test {
namespace {

using namespace std::chrono_literals;

constexpr int kFrames = 3000;

TEST_F(MixedArchTest, AnAuthenticatedPeerSendingAnythingKillsNoForeignDaemon) {
  ASSERT_NO_FATAL_FAILURE(start_mixed_cluster(/*slot=*/25));
  auto member = ctl::ClientConnection::open(connect_options(1));
  ASSERT_TRUE(member.is_ok()) << member.error();
  const std::string cluster_name = (*member)->daemon_hello().cluster;
  for (int k = 2; k <= cluster_->nodes(); ++k) {
    auto watcher = ctl::ClientConnection::open(connect_options(k));
    ASSERT_TRUE(watcher.is_ok()) << name(k) << ": " << watcher.error();
    PeerFuzzer fuzzer(cluster_->node_endpoint(k), connect_options(k).secret, cluster_name);
    auto connections = fuzzer.run(kFrames, [&] { return refusals_of(**watcher, k); });
    ASSERT_TRUE(connections.is_ok()) << name(k) << ": " << connections.error();
    std::cout << name(k) << ": " << kFrames << " frames over " << *connections << " connections\n";
    // The fuzzer's many connections may have tripped the daemon's limit on new connections a
    // second from one address (net.connections_per_second): it refuses for a moment, as it
    // should, then answers.
    Result<StatusReply> status = Status::error("not asked");
    poll_until(15s, 250ms, [&] { return (status = ctl::query_status(connect_options(k), 10s)).is_ok(); });
    EXPECT_TRUE(status.is_ok()) << name(k) << " after the fuzzer: " << (status ? "" : status.error());
  }
  auto ref = reference_run(ctl::job_spec("heat2d", 6, 40, {{"size", "96x96"}}));
  ASSERT_TRUE(ref.is_ok()) << ref.error();
  auto connection = connect(1);
  ASSERT_NE(connection, nullptr);
  auto end = ctl::run_job(*connection, ref->spec, nullptr, ctl::Clock::now() + 300s);
  ASSERT_TRUE(end.is_ok()) << end.error();
  ASSERT_TRUE(std::holds_alternative<JobResult>(*end)) << std::get<JobFailed>(*end).reason;
  EXPECT_EQ(std::get<JobResult>(*end).checksum, ref->checksum);
}

}  // namespace
}  // namespace drift::test
