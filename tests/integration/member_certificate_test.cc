// Member certificates (cluster.tls_ca / tls_cert / tls_key, made by
// scripts/make-cluster-certs.sh): three daemons, each with its own certificate of the cluster's
// CA, form a cluster and run a job; driftctl still reaches them with the secret. A machine with
// the secret but no certificate is refused as a node, and one whose certificate another CA
// signed is refused at the TLS handshake; each refusal is logged.
#include <gtest/gtest.h>

#include <openssl/ssl.h>

#include <cstdlib>

#include "ctl/frame_io.h"
#include "ctl/job_client.h"
#include "ctl/status_query.h"
#include "node/net/tls_context.h"
#include "tests/integration/cluster_test_fixture.h"
#include "tests/integration/peer_fuzzer.h"
#include "tests/integration/poll.h"

namespace drift::test {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;

constexpr int kMemberCertificateSlot = 42;

// Runs scripts/make-cluster-certs.sh DIR NAME...; false if it failed.
bool make_certs(const fs::path& dir, const std::string& names) {
  const std::string command = std::string(DRIFT_SOURCE_DIR) + "/scripts/make-cluster-certs.sh " +
                              dir.string() + " " + names + " > " + (dir / "made.log").string() +
                              " 2>&1";
  fs::create_directories(dir);
  return std::system(command.c_str()) == 0;
}

// Reads whatever the daemon sends until it hangs up or fails the connection with an alert
// (true), or 3 s pass (false).
bool closed_by_daemon(ctl::TcpStream& stream) {
  const auto deadline = ctl::Clock::now() + 3s;
  std::array<std::uint8_t, 1> byte{};
  for (int i = 0; i < (1 << 16); ++i) {
    if (auto ec = stream.read_exact(byte, deadline)) return ec != asio::error::timed_out;
  }
  return false;
}

TEST_F(ClusterTest, MembersProveACertificateOfTheClusterCaWhenOneIsConfigured) {
  const fs::path certs = dir_ / "certs", other = dir_ / "other-ca";
  ASSERT_TRUE(make_certs(certs, "n1 n2 n3")) << "see " << (certs / "made.log");
  ASSERT_TRUE(make_certs(other, "intruder")) << "see " << (other / "made.log");
  ctl::LocalClusterOptions options;
  options.driftd = bin_dir() / "driftd";
  options.stop_with_parent = true;
  for (int k = 1; k <= 3; ++k) {
    const std::string name = "n" + std::to_string(k);
    options.node_args[k] = {"--cluster.tls_ca=" + (certs / "ca.pem").string(),
                            "--cluster.tls_cert=" + (certs / (name + ".pem")).string(),
                            "--cluster.tls_key=" + (certs / (name + ".key")).string()};
  }
  cluster_ = std::make_unique<ctl::LocalCluster>(dir_, options);
  ASSERT_NO_FATAL_FAILURE(start_cluster(3, kMemberCertificateSlot));
  // Whether node k's log says `text` within 3 s.
  const auto log_says = [&](int k, const std::string& text) {
    return poll_until(3s, 50ms, [&] { return log_of(k).find(text) != std::string::npos; });
  };

  // A job across the certified members, submitted with the secret (a client's PSK).
  JobSpec spec = ctl::job_spec("heat2d", 6, 40, {{"size", "64x64"}});
  auto serial = reference_run(spec);
  ASSERT_TRUE(serial.is_ok()) << serial.error();
  auto connection = connect(1);
  ASSERT_NE(connection, nullptr);
  auto end = ctl::run_job(*connection, serial->spec, nullptr, ctl::Clock::now() + 60s);
  ASSERT_TRUE(end.is_ok()) << end.error();
  ASSERT_TRUE(std::holds_alternative<JobResult>(*end));
  EXPECT_EQ(std::get<JobResult>(*end).checksum, serial->checksum);

  // The secret without a certificate: TLS passes (it is a client's PSK), the node Hello not.
  const std::string cluster_name = connection->daemon_hello().cluster;
  auto secret_only = open_member_connection(cluster().node_endpoint(1),
                                            connect_options(1).secret, cluster_name, 98);
  if (secret_only.is_ok()) {
    EXPECT_TRUE(closed_by_daemon(**secret_only));
  }
  EXPECT_TRUE(log_says(1, "node 98 showed the cluster secret but no certificate of the cluster CA"))
      << log_of(1);

  // A certificate of another CA, with the right secret: refused at the TLS handshake. (The
  // intruder does not check node 1's certificate, so that it is node 1 that refuses.)
  auto intruder = TlsContext::member(connect_options(1).secret, {},
                                     {(other / "ca.pem").string(), (other / "intruder.pem").string(),
                                      (other / "intruder.key").string()});
  ASSERT_TRUE(intruder.is_ok()) << intruder.error();
  SSL_CTX_set_verify((*intruder)->ssl().native_handle(), SSL_VERIFY_NONE, nullptr);
  auto stream = ctl::TcpStream::connect(cluster().node_endpoint(1), ctl::Clock::now() + 5s, *intruder);
  if (stream.is_ok()) {
    EXPECT_TRUE(closed_by_daemon(**stream));
  }
  EXPECT_TRUE(log_says(1, "certificate verify failed")) << log_of(1);

  // The members are all still there.
  auto after = ctl::query_status(connect_options(2), 5s);
  ASSERT_TRUE(after.is_ok()) << after.error();
  int alive = 0;
  for (const auto& n : after->nodes) alive += n.member.state == MemberState::kAlive;
  EXPECT_EQ(alive, 3);
}

}  // namespace
}  // namespace drift::test
