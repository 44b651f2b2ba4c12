// A man in the middle who changes one byte (docs/architecture.md §4): node 3 joins through a relay
// in front of node 1, so its link to node 1 passes through it; once a job runs, the relay flips one
// bit of what node 3 sends. TLS's record authentication catches it: node 1 closes that connection
// as a refused record (counted in its status, logged), node 3 reconnects directly, and the job —
// rolled back to its last checkpoint by the stall watchdog, since what that connection carried
// is lost — still ends with its serial checksum.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "ctl/job_client.h"
#include "ctl/status_query.h"
#include "tests/integration/cluster_test_fixture.h"
#include "tests/integration/poll.h"

namespace drift::test {
namespace {

using namespace std::chrono_literals;

constexpr int kTamperSlot = 43;

// Relays every connection to 127.0.0.1:`listen_port` to 127.0.0.1:`target_port`; once armed, it
// flips one bit of the next byte going from the connecting side to the target, once.
class Relay {
 public:
  Relay(std::uint16_t listen_port, std::uint16_t target_port) : target_(target_port) {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int on = 1;
    ::setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    sockaddr_in at = address(listen_port);
    ok_ = ::bind(listener_, reinterpret_cast<sockaddr*>(&at), sizeof at) == 0 &&
          ::listen(listener_, 8) == 0;
    if (ok_) thread_ = std::thread([this] { run(); });
  }
  ~Relay() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    ::close(listener_);
  }
  bool ok() const { return ok_; }
  void arm() { armed_ = true; }
  bool flipped() const { return flipped_; }
  int connections() const { return connections_; }

 private:
  static sockaddr_in address(std::uint16_t port) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
  }

  struct Pair {
    int from = -1;  // the connecting side (node 3)
    int to = -1;    // the target (node 1)
  };

  void run() {
    std::vector<Pair> pairs;
    while (!stop_) {
      std::vector<pollfd> fds{{listener_, POLLIN, 0}};
      for (const Pair& p : pairs) {
        fds.push_back({p.from, POLLIN, 0});
        fds.push_back({p.to, POLLIN, 0});
      }
      if (::poll(fds.data(), fds.size(), 50) <= 0) continue;
      const std::size_t polled = pairs.size();  // a pair accepted now is polled next time
      if (fds[0].revents & POLLIN) accept_one(pairs);
      for (std::size_t i = 0; i < polled; ++i) {
        Pair& p = pairs[i];
        const bool up = pump(fds[1 + 2 * i].revents, p.from, p.to, true);
        const bool down = pump(fds[2 + 2 * i].revents, p.to, p.from, false);
        if (!up || !down) {
          ::close(p.from);
          ::close(p.to);
          p.from = p.to = -1;
        }
      }
      std::erase_if(pairs, [](const Pair& p) { return p.from < 0; });
    }
    for (const Pair& p : pairs) {
      ::close(p.from);
      ::close(p.to);
    }
  }

  void accept_one(std::vector<Pair>& pairs) {
    const int from = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (from < 0) return;
    const int to = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in at = address(target_);
    if (::connect(to, reinterpret_cast<sockaddr*>(&at), sizeof at) != 0) {
      ::close(from);
      ::close(to);
      return;
    }
    ++connections_;
    pairs.push_back({from, to});
  }

  // Moves what is readable on `in` to `out`; false once either side is done.
  bool pump(short revents, int in, int out, bool upstream) {
    if (!(revents & (POLLIN | POLLHUP | POLLERR))) return true;
    char buffer[65536];
    const ssize_t n = ::recv(in, buffer, sizeof buffer, 0);
    if (n <= 0) return false;
    if (upstream && armed_ && !flipped_) {
      buffer[n / 2] ^= 0x10;
      flipped_ = true;
    }
    for (ssize_t sent = 0; sent < n;) {
      const ssize_t m = ::send(out, buffer + sent, static_cast<std::size_t>(n - sent), MSG_NOSIGNAL);
      if (m <= 0) return false;
      sent += m;
    }
    return true;
  }

  std::uint16_t target_;
  int listener_ = -1;
  bool ok_ = false;
  std::atomic<bool> stop_{false}, armed_{false}, flipped_{false};
  std::atomic<int> connections_{0};
  std::thread thread_;
};

TEST_F(ClusterTest, AByteChangedOnTheWireClosesThatConnectionAndTheJobGoesOn) {
  const std::uint16_t base = base_port_for(kTamperSlot);
  Relay relay(static_cast<std::uint16_t>(base + 5), base);  // in front of node 1
  ASSERT_TRUE(relay.ok()) << "cannot listen on port " << base + 5;
  ctl::LocalClusterOptions options;
  options.driftd = bin_dir() / "driftd";
  options.stop_with_parent = true;
  options.node_args[3] = {"--cluster.seeds=127.0.0.1:" + std::to_string(base + 5)};
  // The connection's frames in flight are lost with it; the stall watchdog rolls the job back
  // to its last checkpoint (30 s by default; shorter here).
  options.extra_args = {"--checkpoint.stall_ms=3000"};
  cluster_ = std::make_unique<ctl::LocalCluster>(dir_, options);
  ASSERT_NO_FATAL_FAILURE(start_cluster(3, kTamperSlot));
  EXPECT_GE(relay.connections(), 1) << "node 3 did not join through the relay";
  auto refused = [&]() -> std::uint64_t {
    auto status = ctl::query_status(connect_options(1), 5s);
    if (!status) return 0;
    for (const auto& n : status->nodes) {
      if (n.member.node_id == 1) return n.counters.refused;
    }
    return 0;
  };
  const std::uint64_t refused_before = refused();

  JobSpec spec = ctl::job_spec("heat2d", 12, 300, {{"size", "192x192"}});
  spec.runtime["checkpoint_steps"] = "20";
  spec.runtime["checkpoint_ms"] = "0";
  auto connection = connect(1);
  ASSERT_NE(connection, nullptr);
  auto end = ctl::run_job(
      *connection, spec,
      [&](const JobProgress& p) {
        if (p.step >= 30) relay.arm();
      },
      ctl::Clock::now() + 120s);
  ASSERT_TRUE(end.is_ok()) << end.error();
  ASSERT_TRUE(std::holds_alternative<JobResult>(*end)) << std::get<JobFailed>(*end).reason;
  EXPECT_EQ(std::get<JobResult>(*end).checksum, serial_checksum(spec));
  ASSERT_TRUE(relay.flipped()) << "no byte went from node 3 to node 1 through the relay";
  EXPECT_TRUE(poll_until(5s, 50ms, [&] {
    return log_of(1).find("refused TLS record") != std::string::npos;
  })) << "node 1 did not log the altered record";
  EXPECT_GT(refused(), refused_before) << "node 1 did not count it";
  if (HasFailure() || std::getenv("DRIFT_TEST_SHOW_LOGS")) {
    std::cout << cluster_->log_tail(1, 40) << cluster_->log_tail(3, 40);
  }
}

}  // namespace
}  // namespace drift::test
