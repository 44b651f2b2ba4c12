// Watches a running testbed job: every interval it asks each daemon for its own status (the
// self entry is fresh; a peer's entry may be old), and keeps a time series of every node's load,
// task count and capacity, and the cluster's total of tasks that arrived by migration. Runs on a
// thread of its own from start() to stop().
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "ctl/client_connection.h"

namespace drift::bench {

struct LoadSample {
  double t = 0;                     // seconds since start()
  std::vector<double> load;         // per node (index k-1), as the node advertises it
  std::vector<double> capacity;
  std::vector<std::uint32_t> tasks;
  std::vector<double> external;     // per node: external load per core (emulated, in emulation)
  std::uint64_t migrations_in = 0;  // summed over the nodes that answered
  std::uint64_t balance_rounds_max = 0;  // the most balancing rounds any node acted in
  std::uint64_t control_bytes = 0;  // heartbeat + balancing bytes sent, summed
};

class LoadSampler {
 public:
  LoadSampler(std::vector<ctl::ConnectOptions> nodes, std::chrono::milliseconds interval);
  ~LoadSampler();
  void start();
  void stop();
  std::vector<LoadSample> samples() const;
  // One sample now (also used before and after a run).
  LoadSample sample_now(double t);

 private:
  void loop();

  std::vector<ctl::ConnectOptions> nodes_;
  std::vector<std::unique_ptr<ctl::ClientConnection>> connections_;
  std::chrono::milliseconds interval_;
  std::chrono::steady_clock::time_point began_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  mutable std::mutex mutex_;
  std::vector<LoadSample> samples_;
};

}  // namespace drift::bench
