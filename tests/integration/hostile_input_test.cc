// (c) Garbage, a plaintext Hello, a TLS handshake with a wrong key or an unknown identity, and,
// inside TLS, an oversized frame header and a wrong-secret drift handshake sent to a daemon's
// port are refused: the connection is closed, the reason is logged, and the daemon keeps
// serving. A flood of silent connections from one address is capped (net.max_handshakes_per_address)
// while members and clients from elsewhere go on. A client that sends requests and reads none of
// the answers holds up its own requests, not the daemon's memory.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <string>
#include <vector>

#include "ctl/client_connection.h"
#include "ctl/frame_io.h"
#include "ctl/status_query.h"
#include "ctl/tcp_stream.h"
#include "protocol/frame.h"
#include "node/net/tls_context.h"
#include "protocol/handshake.h"
#include "tests/integration/cluster_test_fixture.h"
#include "tests/integration/poll.h"
#include "tests/integration/proc_status.h"

namespace drift::test {
namespace {

using namespace std::chrono_literals;

class HostileInputTest : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    start_cluster(2, /*slot=*/2);
  }

  // A plain TCP connection, no TLS.
  std::unique_ptr<ctl::TcpStream> open_raw() {
    auto stream = ctl::TcpStream::connect(cluster().node_endpoint(1), ctl::Clock::now() + 2s, nullptr);
    EXPECT_TRUE(stream.is_ok()) << stream.error();
    return stream ? std::move(stream).value() : nullptr;
  }

  // A TLS connection offering `identity` with `key`; the TLS handshake's outcome.
  Result<std::unique_ptr<ctl::TcpStream>> open_tls(const std::string& identity,
                                                   std::vector<std::uint8_t> key) {
    auto tls = TlsContext::client(identity, std::move(key));
    if (!tls) return tls.status();
    return ctl::TcpStream::connect(cluster().node_endpoint(1), ctl::Clock::now() + 2s, *tls);
  }

  // TLS as a member: the drift handshake is what comes next.
  std::unique_ptr<ctl::TcpStream> open_member() {
    auto stream = open_tls(kMemberIdentity, tls_psk(connect_options(1).secret, kMemberIdentity));
    EXPECT_TRUE(stream.is_ok()) << stream.error();
    return stream ? std::move(stream).value() : nullptr;
  }

  // Reads (and drops whatever the daemon sends, e.g. its Hello) until the daemon hangs up.
  static bool closed_by_daemon(ctl::TcpStream& stream) {
    const auto deadline = ctl::Clock::now() + 3s;
    std::array<std::uint8_t, 1> byte{};
    for (int i = 0; i < (1 << 16); ++i) {
      if (stream.read_exact(byte, deadline)) return stream.closed_by_peer();
    }
    return false;
  }

  void expect_log_mentions(const std::string& reason) {
    const bool logged =
        poll_until(2s, 50ms, [&] { return log_of(1).find(reason) != std::string::npos; });
    EXPECT_TRUE(logged) << "node 1's log does not mention: " << reason;
  }

  void expect_still_serving() {
    auto reply = ctl::query_status(connect_options(1), 2s);
    ASSERT_TRUE(reply.is_ok()) << reply.error();
    EXPECT_EQ(reply->nodes.size(), 2u);
  }
};

TEST_F(HostileInputTest, GarbageBytesAreRefused) {
  auto stream = open_raw();
  ASSERT_NE(stream, nullptr);
  const std::string garbage = "GET / HTTP/1.1\r\nHost: drift\r\n\r\n";
  ASSERT_FALSE(
      stream->write_all({reinterpret_cast<const std::uint8_t*>(garbage.data()), garbage.size()},
                        ctl::Clock::now() + 2s));
  EXPECT_TRUE(closed_by_daemon(*stream));
  expect_log_mentions("refused TLS handshake");
  expect_still_serving();
}

TEST_F(HostileInputTest, PlaintextHelloIsRefused) {
  auto stream = open_raw();
  ASSERT_NE(stream, nullptr);
  ASSERT_TRUE(ctl::write_message(*stream, ctl::client_hello(""), ctl::Clock::now() + 2s).is_ok());
  EXPECT_TRUE(closed_by_daemon(*stream));
  expect_log_mentions("refused TLS handshake");
  expect_still_serving();
}

TEST_F(HostileInputTest, TlsWithAWrongKeyOrAnUnknownIdentityIsRefused) {
  auto wrong_key = open_tls(kMemberIdentity, std::vector<std::uint8_t>(32, 'k'));
  ASSERT_FALSE(wrong_key.is_ok());
  EXPECT_NE(wrong_key.error().find("refused the TLS handshake"), std::string::npos)
      << wrong_key.error();
  // The right secret, but an identity no daemon gives out.
  const std::string stranger = "drift-admin";
  auto unknown = open_tls(stranger, tls_psk(connect_options(1).secret, stranger));
  ASSERT_FALSE(unknown.is_ok());
  expect_log_mentions("refused TLS handshake");
  expect_still_serving();
}

TEST_F(HostileInputTest, OversizedFrameHeaderIsRefusedBeforeAllocating) {
  auto stream = open_member();
  ASSERT_NE(stream, nullptr);
  FrameHeader huge;
  huge.type = static_cast<std::uint16_t>(MsgType::kHello);
  huge.length = 0xfffffff0u;
  ASSERT_FALSE(stream->write_all(encode_header(huge), ctl::Clock::now() + 2s));
  EXPECT_TRUE(closed_by_daemon(*stream));
  expect_log_mentions("frame body of " + std::to_string(huge.length) + " bytes exceeds");
  expect_still_serving();
}

TEST_F(HostileInputTest, WrongSecretHandshakeInsideTlsIsRefused) {
  auto stream = open_member();
  ASSERT_NE(stream, nullptr);
  const auto deadline = ctl::Clock::now() + 3s;
  const Hello ours = ctl::client_hello("");
  ASSERT_TRUE(ctl::write_message(*stream, ours, deadline).is_ok());
  auto theirs = ctl::read_message(*stream, kHandshakeMaxBody, deadline);
  ASSERT_TRUE(theirs.is_ok()) << theirs.error();
  ASSERT_TRUE(std::holds_alternative<Hello>(*theirs));
  auto their_auth = ctl::read_message(*stream, kHandshakeMaxBody, deadline);
  ASSERT_TRUE(their_auth.is_ok()) << their_auth.error();

  const std::vector<std::uint8_t> wrong_secret(32, 'x');
  const HelloAuth proof{handshake_mac(wrong_secret, ours, std::get<Hello>(*theirs))};
  ASSERT_TRUE(ctl::write_message(*stream, proof, deadline).is_ok());
  EXPECT_TRUE(closed_by_daemon(*stream));
  const auto secret = connect_options(1).secret;
  expect_log_mentions(verify_auth(secret, ours, std::get<Hello>(*theirs), proof).message());
  expect_still_serving();
}

TEST_F(HostileInputTest, ClientWithWrongSecretGetsAClearError) {
  auto options = connect_options(1);
  options.secret.assign(32, 'y');
  options.secret_source = "a test's wrong secret";
  auto connection = ctl::ClientConnection::open(options);
  ASSERT_FALSE(connection.is_ok());
  EXPECT_NE(connection.error().find(cluster().node_endpoint(1).to_string()), std::string::npos)
      << connection.error();
  EXPECT_NE(connection.error().find("secret"), std::string::npos) << connection.error();
  expect_still_serving();
}

// A TCP connection from `source` (another loopback address) to `to` that says nothing; -1 if
// it could not be made.
int silent_connection(const char* source, const Endpoint& to) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in from{};
  from.sin_family = AF_INET;
  ::inet_pton(AF_INET, source, &from.sin_addr);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(to.port);
  ::inet_pton(AF_INET, to.host.c_str(), &addr.sin_addr);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&from), sizeof from) != 0 ||
      ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Whether the daemon has closed `fd` by now (a read returns end of file or a reset).
bool closed_now(int fd) {
  pollfd p{fd, POLLIN, 0};
  if (::poll(&p, 1, 0) <= 0) return false;
  char byte;
  return ::recv(fd, &byte, 1, MSG_DONTWAIT) <= 0;
}

TEST_F(HostileInputTest, AFloodOfSilentConnectionsFromOneAddressIsCapped) {
  constexpr int kFlood = 40, kPerAddress = 16;  // net.max_handshakes_per_address's default
  std::vector<int> fds;
  for (int i = 0; i < kFlood; ++i) {
    const int fd = silent_connection("127.0.0.2", cluster().node_endpoint(1));
    ASSERT_GE(fd, 0) << "connection " << i;
    fds.push_back(fd);
  }
  // Those beyond the cap are closed at once; the others wait for their handshake (5 s), so
  // well before then exactly kFlood - kPerAddress are closed.
  std::vector<bool> closed(fds.size(), false);
  int count = 0;
  poll_until(3s, 20ms, [&] {
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (!closed[i] && closed_now(fds[i])) closed[i] = true, ++count;
    }
    return count >= kFlood - kPerAddress;
  });
  EXPECT_EQ(count, kFlood - kPerAddress);
  expect_log_mentions("connections from 127.0.0.2 are already in their handshake");
  // A client from another address, and the members, are not held up by it.
  expect_still_serving();
  for (int fd : fds) ::close(fd);
}

// Loopback clients share one address: sixteen silent connections from it (the most in their
// handshake from one address) once refused every driftctl on the machine until they timed out
// (5 s), and an attacker who kept them open locked it out for good. Now the oldest of them
// makes room for a newcomer once it has been silent 500 ms (Transport::make_room).
TEST_F(HostileInputTest, SilentConnectionsFromAClientsAddressYieldToIt) {
  constexpr int kPerAddress = 16;  // net.max_handshakes_per_address's default
  std::vector<int> fds;
  for (int i = 0; i < kPerAddress; ++i) {
    const int fd = silent_connection("127.0.0.1", cluster().node_endpoint(1));
    ASSERT_GE(fd, 0) << "connection " << i;
    fds.push_back(fd);
  }
  const auto began = ctl::Clock::now();
  std::string last_error;
  const bool served = poll_until(3s, 50ms, [&] {
    auto reply = ctl::query_status(connect_options(1), 1s);
    if (!reply) last_error = reply.error();
    return reply.is_ok();
  });
  EXPECT_TRUE(served) << "no status within 3 s of " << kPerAddress
                      << " silent connections: " << last_error;
  EXPECT_LT(ctl::Clock::now() - began, 3s);
  expect_log_mentions("still in its handshake after");
  for (int fd : fds) ::close(fd);
}

// Each status answer is about 57 times the request's size: 300000 unread ones once held about
// 280 MB in the daemon, for as long as the client kept the connection.
TEST_F(HostileInputTest, AClientThatReadsNoAnswersHoldsUpItsRequestsNotTheDaemonsMemory) {
  auto conn = ctl::ClientConnection::open(connect_options(1));
  ASSERT_TRUE(conn.is_ok()) << conn.error();
  const pid_t daemon = cluster().pid(1);
  const long rss_before = proc_status_field(daemon, "VmRSS:");
  constexpr int kRequests = 300000;
  int sent = 0;
  while (sent < kRequests && (*conn)->send(StatusRequest{}, ctl::Clock::now() + 2s)) ++sent;
  expect_still_serving();  // another client is answered meanwhile
  if (kRssIsMeaningful) {
    long grown_kb = 0;
    poll_until(2s, 100ms, [&] {
      grown_kb = proc_status_field(daemon, "VmRSS:") - rss_before;
      return grown_kb > 64 * 1024;
    });
    EXPECT_LE(grown_kb, 64 * 1024) << "node 1 grew by " << grown_kb << " kB for " << sent
                                   << " unread answers";
  }
  conn->reset();
  expect_still_serving();
}

}  // namespace
}  // namespace drift::test
