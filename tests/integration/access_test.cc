// Who may do what (docs/architecture.md §4), through driftctl as people use it: tokens made with
// `driftctl token create`; a user runs jobs and looks, and is refused (exit 4, the role named)
// moving tasks and reclaiming; an admin may; an expired token and a revoked one (SIGHUP re-reads
// cluster.revoked_tokens) are refused at the TLS handshake; a token cannot act as a node; a
// user cannot attach to another user's job. Each daemon logs who did what.
#include <gtest/gtest.h>
#include <signal.h>

#include <ctime>
#include <fstream>
#include <string>

#include "ctl/frame_io.h"
#include "ctl/job_client.h"
#include "ctl/tcp_stream.h"
#include "node/net/access_token.h"
#include "node/net/tls_context.h"
#include "protocol/codec.h"
#include "protocol/frame.h"
#include "protocol/handshake.h"
#include "tests/integration/people_fixture.h"

namespace drift::test {
namespace {

using namespace std::chrono_literals;

constexpr int kAccessSlot = 39;

class AccessTest : public PeopleTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    ASSERT_NO_FATAL_FAILURE(start_cluster(2, kAccessSlot));
  }
};

TEST_F(AccessTest, AUserRunsAndLooksAnAdminMayAlsoReclaimAndRelease) {
  const std::string alice = make_token("alice", "user");
  const std::string bob = make_token("bob", "admin");

  const auto status = as(alice, "status");
  EXPECT_EQ(status.exit_code, 0) << status.out;
  const std::string job = "run heat2d --tasks 4 --steps 40 --size 96x64";
  const auto run = as(alice, job);
  ASSERT_EQ(run.exit_code, 0) << run.out;
  const auto serial = driftctl(job + " --serial");
  ASSERT_EQ(serial.exit_code, 0) << serial.out;
  EXPECT_EQ(checksum_line(run.out), checksum_line(serial.out));
  expect_logged("alice submitted a heat2d job");

  for (const std::string command : {"reclaim", "migrate 0x1:0 2"}) {
    const auto refused = as(alice, command);
    EXPECT_EQ(refused.exit_code, 4) << command << ": " << refused.out;
    EXPECT_NE(refused.out.find("needs the admin role; token 'alice' is a user"), std::string::npos)
        << refused.out;
  }
  expect_logged("it needs the admin role");

  const auto reclaim = as(bob, "reclaim");
  EXPECT_EQ(reclaim.exit_code, 0) << reclaim.out;
  expect_logged("bob asked this node to reclaim");
  const auto release = as(bob, "release");
  EXPECT_EQ(release.exit_code, 0) << release.out;
}

TEST_F(AccessTest, ExpiredAndRevokedTokensAreRefused) {
  // An expired token, made here as no driftctl would make one.
  auto secret = connect_options(1).secret;
  Token old{"old", Role::kUser, static_cast<std::int64_t>(std::time(nullptr)) - 60};
  const std::string old_file = (dir_ / "old.token").string();
  std::ofstream(old_file) << token_file_text(old, tls_psk(secret, old.identity()));
  const auto expired = as(old_file, "status");
  EXPECT_EQ(expired.exit_code, 3) << expired.out;
  EXPECT_NE(expired.out.find("refused the TLS handshake"), std::string::npos) << expired.out;
  expect_logged("token 'old' expired");

  const std::string carol = make_token("carol", "user");
  ASSERT_EQ(as(carol, "status").exit_code, 0);
  std::ofstream(cluster_->config_file(1), std::ios::app) << "\n[cluster]\nrevoked_tokens = carol\n";
  ASSERT_EQ(::kill(cluster_->pid(1), SIGHUP), 0);
  expect_logged("SIGHUP: revoked tokens now: carol");
  const auto revoked = as(carol, "status");
  EXPECT_EQ(revoked.exit_code, 3) << revoked.out;
  expect_logged("token 'carol' is revoked");
}

TEST_F(AccessTest, ATokenCannotActAsANode) {
  const Token dave{"dave", Role::kAdmin, 0};
  auto tls = TlsContext::client(dave.identity(), tls_psk(connect_options(1).secret, dave.identity()));
  ASSERT_TRUE(tls.is_ok()) << tls.error();
  auto stream = ctl::TcpStream::connect(cluster_->node_endpoint(1), ctl::Clock::now() + 2s, *tls);
  ASSERT_TRUE(stream.is_ok()) << stream.error();
  auto member = ctl::ClientConnection::open(connect_options(1));
  ASSERT_TRUE(member.is_ok()) << member.error();
  Hello hello = ctl::client_hello((*member)->daemon_hello().cluster);
  hello.role = PeerRole::kNode;
  hello.node_id = 7;
  ASSERT_TRUE(ctl::write_message(**stream, hello, ctl::Clock::now() + 2s).is_ok());
  auto answer = ctl::read_message(**stream, kHandshakeMaxBody, ctl::Clock::now() + 3s);
  EXPECT_FALSE(answer.is_ok()) << "the daemon answered a token's node Hello";
  expect_logged("token 'dave' may not act as a node");
}

TEST_F(AccessTest, AUserCannotAttachToAnotherUsersJob) {
  const auto secret = connect_options(1).secret;
  auto options_for = [&](const std::string& name) {
    const Token t{name, Role::kUser, 0};
    auto o = connect_options(1);
    o.token_identity = t.identity();
    o.token_key = tls_psk(secret, t.identity());
    o.secret.clear();
    return o;
  };
  auto alice = ctl::ClientConnection::open(options_for("alice"));
  ASSERT_TRUE(alice.is_ok()) << alice.error();
  JobSpec spec = ctl::job_spec("heat2d", 4, 400, {{"size", "128x128"}});
  auto serial = reference_run(spec);
  ASSERT_TRUE(serial.is_ok()) << serial.error();
  spec = serial->spec;
  std::string refusal = "not tried";
  auto end = ctl::run_job(
      **alice, spec,
      [&](const JobProgress& p) {
        if (refusal != "not tried" || p.step < 5) return;
        auto erin = ctl::ClientConnection::open(options_for("erin"));
        if (!erin) return void(refusal = "erin could not connect: " + erin.error());
        if (Status st = (*erin)->send(JobAttach{p.job, 0}); !st) return void(refusal = st.message());
        auto reply = (*erin)->receive(ctl::Clock::now() + 5s);
        refusal = reply ? "erin got " + std::string(to_string(type_of(*reply))) : reply.error();
      },
      ctl::Clock::now() + 60s);
  ASSERT_TRUE(end.is_ok()) << end.error();
  ASSERT_TRUE(std::holds_alternative<JobResult>(*end)) << std::get<JobFailed>(*end).reason;
  EXPECT_EQ(std::get<JobResult>(*end).checksum, serial->checksum);
  EXPECT_TRUE(refusal.starts_with("refused by ")) << refusal;
  EXPECT_NE(refusal.find("this job is alice's"), std::string::npos) << refusal;
}

}  // namespace
}  // namespace drift::test
