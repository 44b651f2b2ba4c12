// A member that holds the cluster secret but is not what a message claims: node 2 hears, from a
// peer that shook hands as member 99, a heartbeat in node 1's name, a rollback in the root's
// name, and an end and reduced values of a job whose root is node 1. Each is dropped and counted
// (node 2's `refused`), the connection stays open (nothing it sent was malformed), and the job
// goes on to its serial checksum.
#include <gtest/gtest.h>

#include "ctl/frame_io.h"
#include "ctl/job_client.h"
#include "tests/integration/cluster_test_fixture.h"
#include "tests/integration/migration_harness.h"
#include "tests/integration/peer_fuzzer.h"
#include "tests/integration/poll.h"

namespace drift::test {
namespace {

using namespace std::chrono_literals;

constexpr int kForgedSenderSlot = 41;

TEST_F(ClusterTest, AMemberCannotSpeakForAnotherNodeOrForAJobsRoot) {
  ASSERT_NO_FATAL_FAILURE(start_cluster(3, kForgedSenderSlot));
  wait_for_load_reports(1);
  auto member = ctl::ClientConnection::open(connect_options(2));
  ASSERT_TRUE(member.is_ok()) << member.error();
  const std::string cluster_name = (*member)->daemon_hello().cluster;
  member->reset();

  JobSpec spec = ctl::job_spec("heat2d", 3, 400, {{"size", "96x96"}});
  auto serial = reference_run(spec);
  ASSERT_TRUE(serial.is_ok()) << serial.error();
  BackgroundJob job(connect(1), serial->spec, 120s);
  ASSERT_TRUE(job.wait_started(30s));
  const std::uint64_t id = job.id();
  ASSERT_EQ(id >> 32, 1u) << "node 1 is the job's root";

  auto before = counters_of(2);
  ASSERT_TRUE(before.is_ok()) << before.error();
  auto peer = open_member_connection(cluster().node_endpoint(2), connect_options(2).secret,
                                     cluster_name, 99);
  ASSERT_TRUE(peer.is_ok()) << peer.error();

  Heartbeat in_node_1s_name;
  in_node_1s_name.from = 1;
  in_node_1s_name.incarnation = 1;
  JobRollback in_the_roots_name;
  in_the_roots_name.job = id;
  in_the_roots_name.generation = 7;
  in_the_roots_name.root = 1;
  ReductionResult reduced;
  reduced.job = id;
  reduced.step = 1;
  reduced.values = {1e300};
  reduced.tasks = {0, 1, 2};
  const std::vector<WireMessage> forged = {in_node_1s_name, in_the_roots_name, reduced,
                                           JobEnd{id, true, "forged"}};
  for (const WireMessage& msg : forged) {
    ASSERT_TRUE(ctl::write_message(**peer, msg, ctl::Clock::now() + 5s).is_ok());
  }
  // The counter, asked after the peer's last frame was sent, moves by one per forged message.
  std::uint64_t refused = 0;
  ASSERT_TRUE(poll_until(10s, 50ms, [&] {
    auto now = counters_of(2);
    refused = now ? now->refused - before->refused : 0;
    return refused >= forged.size();
  })) << "node 2 refused " << refused << " of " << forged.size();
  EXPECT_EQ(refused, forged.size());
  const std::string log = log_of(2);
  EXPECT_NE(log.find("it claims to come from node 1"), std::string::npos);
  EXPECT_NE(log.find("only the job's root, node 1, sends it"), std::string::npos);
  // Nothing malformed: the peer's connection is still open — reading from it (node 2's own
  // heartbeats to member 99 may come) ends by timing out, not by the peer closing it.
  const auto quiet_until = ctl::Clock::now() + 500ms;
  Result<WireMessage> read = Status::error("not read");
  do {
    read = ctl::read_message(**peer, 1 << 20, quiet_until);
  } while (read.is_ok());
  EXPECT_EQ(read.error(), "timed out");

  ASSERT_TRUE(job.wait_done(120s));
  EXPECT_TRUE(ended_with_checksum(job.outcome(), serial->checksum));
}

}  // namespace
}  // namespace drift::test
