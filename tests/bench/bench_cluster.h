// The drift side of the benchmark: a local cluster of real driftd processes (ctl/'s
// LocalCluster, so the same code as `driftctl local up`) in a fresh temp dir, every daemon with
// node.capacity = 1 and balance.capacity = static (no measured capacity that earlier jobs could
// skew) so that placement splits a job's tasks evenly into contiguous index ranges (2 tasks on 2
// nodes: task 0 on node 1, task 1 on node 2), and balance.strategy = none so that the tasks stay
// where the benchmark puts them. Waits until node 1 lists every member and has a load report
// from each one in its local group. The destructor stops the daemons and removes the dir.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <utility>

#include "ctl/client_connection.h"
#include "ctl/local_cluster.h"
#include <drift/status.h>

namespace drift::bench {

class BenchCluster {
 public:
  // `base_config` is conf/local.conf or another base config for `driftctl local up`.
  static Result<std::unique_ptr<BenchCluster>> start(int nodes, std::uint16_t base_port,
                                                     const std::filesystem::path& base_config);
  // The same with the caller's daemon arguments (every daemon's and per daemon) instead of
  // those settings; the daemons still die with this process.
  static Result<std::unique_ptr<BenchCluster>> start(int nodes, std::uint16_t base_port,
                                                     const std::filesystem::path& base_config,
                                                     ctl::LocalClusterOptions options);
  // What the first start() uses: node.capacity 1, static capacity, no balancing.
  static ctl::LocalClusterOptions default_options();
  ~BenchCluster();
  BenchCluster(const BenchCluster&) = delete;
  BenchCluster& operator=(const BenchCluster&) = delete;

  int nodes() const { return cluster_.nodes(); }
  // Node k's daemon process; -1 if unknown.
  pid_t pid(int k) const { return cluster_.pid(k); }
  Result<ctl::ConnectOptions> connect_options(int k) const;
  Result<std::unique_ptr<ctl::ClientConnection>> connect(int k) const;
  // Node 1's daemon on core `cores.first`, node 2's on `cores.second` (-1: anywhere again); the
  // workers they start later inherit it.
  Status pin(std::pair<int, int> cores) const;
  // The last lines of node k's log, for error reports.
  std::string log_tail(int k) const { return cluster_.log_tail(k, 10); }
  // Node k's whole log (gone with the cluster: copy it before the destructor runs).
  std::filesystem::path log_file(int k) const { return cluster_.log_file(k); }

 private:
  BenchCluster(std::filesystem::path dir, ctl::LocalClusterOptions options)
      : dir_(std::move(dir)), cluster_(dir_, std::move(options)) {}
  Status wait_for_load_reports(int k) const;

  std::filesystem::path dir_;
  ctl::LocalCluster cluster_;
};

}  // namespace drift::bench
