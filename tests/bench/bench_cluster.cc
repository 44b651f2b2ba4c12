// The benchmark's local cluster (bench_cluster.h).
#include "tests/bench/bench_cluster.h"

#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>

#include "ctl/status_query.h"
#include "tests/bench/raw/cpu_pinning.h"

namespace fs = std::filesystem;

namespace drift::bench {

namespace {

constexpr auto kLoadReportTimeout = std::chrono::seconds(10);
constexpr auto kPollInterval = std::chrono::milliseconds(50);
constexpr auto kStatusTimeout = std::chrono::seconds(2);

Result<fs::path> make_temp_dir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp != nullptr && *tmp ? tmp : "/tmp") + "/drift-bench-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    return Status::error("cannot create a temp dir like " + pattern);
  }
  return fs::path(pattern);
}

constexpr int kGroupSize = 8;  // membership.group_size's default: the peers a node hears from

// Every member listed, and a load report (a heartbeat) from each peer in the node's local group:
// with more than kGroupSize + 1 daemons, the ones outside the group never send it one.
bool every_member_reported(const StatusReply& reply, int nodes) {
  if (static_cast<int>(reply.nodes.size()) != nodes) return false;
  int reported = 0;
  for (const auto& n : reply.nodes) {
    if (n.member.node_id != reply.responder && n.load.free_memory_bytes != 0) ++reported;
  }
  return reported >= std::min(nodes - 1, kGroupSize);
}

}  // namespace

Result<std::unique_ptr<BenchCluster>> BenchCluster::start(int nodes, std::uint16_t base_port,
                                                          const fs::path& base_config) {
  return start(nodes, base_port, base_config, default_options());
}

Status BenchCluster::pin(std::pair<int, int> cores) const {
  for (auto [node, cpu] : {std::pair{1, cores.first}, std::pair{2, cores.second}}) {
    const pid_t pid = cluster_.pid(node);
    if (pid <= 0) return Status::error("node " + std::to_string(node) + " has no pid file");
    if (Status s = pin_process(pid, cpu); !s) return s;
  }
  return Status::ok();
}

ctl::LocalClusterOptions BenchCluster::default_options() {
  ctl::LocalClusterOptions options;
  options.extra_args = {"--node.capacity=1", "--balance.capacity=static",
                        "--balance.strategy=none"};
  return options;
}

Result<std::unique_ptr<BenchCluster>> BenchCluster::start(int nodes, std::uint16_t base_port,
                                                          const fs::path& base_config,
                                                          ctl::LocalClusterOptions options) {
  auto dir = make_temp_dir();
  if (!dir) return dir.status();
  options.stop_with_parent = true;
  std::unique_ptr<BenchCluster> cluster(new BenchCluster(*dir, std::move(options)));
  if (Status s = cluster->cluster_.up(nodes, base_port, base_config); !s) return s;
  if (Status s = cluster->wait_for_load_reports(1); !s) return s;
  return cluster;
}

BenchCluster::~BenchCluster() {
  cluster_.down();
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

Result<ctl::ConnectOptions> BenchCluster::connect_options(int k) const {
  auto options = cluster_.connect_options(k);
  if (options) options->connect_timeout = options->handshake_timeout = std::chrono::seconds(5);
  return options;
}

Result<std::unique_ptr<ctl::ClientConnection>> BenchCluster::connect(int k) const {
  auto options = connect_options(k);
  if (!options) return options.status();
  return ctl::ClientConnection::open(*options);
}

Status BenchCluster::wait_for_load_reports(int k) const {
  auto options = connect_options(k);
  if (!options) return options.status();
  const auto deadline = std::chrono::steady_clock::now() + kLoadReportTimeout;
  std::string last = "no answer";
  for (;;) {
    auto reply = ctl::query_status(*options, kStatusTimeout);
    if (reply && every_member_reported(*reply, nodes())) return Status::ok();
    last = reply ? std::to_string(reply->nodes.size()) +
                       " members listed, not all of its group with a load report"
                 : reply.error();
    if (std::chrono::steady_clock::now() >= deadline) {
      return Status::error("node " + std::to_string(k) +
                           " has no load report from every member of its group "
                           "after 10 s: " +
                           last);
    }
    std::this_thread::sleep_for(kPollInterval);
  }
}

}  // namespace drift::bench
