// Carries out the actions of a fault scenario on a running local cluster, for real: signals to
// the daemons' pids (SIGKILL, SIGSTOP, SIGCONT), restarts through LocalCluster, partitions
// through FaultNetwork, and frame faults through each daemon's test hook (FrameFaultsRequest).
// Keeps track of which daemons are killed, paused or cut off, so that `random` and `worker` pick
// a healthy one and an action on a node in the wrong state is reported, not attempted.
// Used from one thread (the scheduler's).
#pragma once

#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "ctl/fault_cpu_quota.h"
#include "ctl/fault_network.h"
#include "ctl/fault_record.h"
#include "ctl/local_cluster.h"

namespace drift::ctl {

class FaultInjector {
 public:
  // `network` may be null (loopback: no partitions), `quotas` too (no hogs).
  FaultInjector(LocalCluster& cluster, FaultNetwork* network, CpuQuotas* quotas,
                std::uint64_t seed);
  ~FaultInjector();

  // Does `action` now. `root` resolves "root", `job_id` is the running job's (migrate); the
  // record's nodes, at_s, job and step are filled in here, and `error` when it could not be done.
  // A migration runs on a thread of its own (a big state on a slow node takes a while); its
  // outcome goes to moves().
  InjectedFault inject(const FaultEntry& entry, int root, std::uint64_t job_id, double now_s);
  // Undoes a fault injected with a duration (restart, SIGCONT, heal, frames back to zero).
  void undo(InjectedFault& fault, double now_s);

  // At the end of a run: SIGCONT every paused daemon, heal every partition, frames back to 0.
  void release_all();

  bool healthy(int k) const;
  std::set<int> unhealthy() const;
  // Waits for the migrations still under way; then each one's outcome, in the order started.
  std::vector<std::string> moves();

 private:
  Status pick(const NodeRef& ref, int root, int& out);
  Status act(FaultKind kind, const FaultAction& a, std::vector<int>& nodes);
  Status signal(int k, int sig);
  Status set_frames(double drop, double duplicate, double delay_ms);
  Status migrate(std::uint64_t job_id, std::uint32_t task, int to, double now_s);

  LocalCluster& cluster_;
  FaultNetwork* network_;
  CpuQuotas* quotas_;
  std::mt19937_64 rng_;
  std::set<int> killed_, stopped_, cut_;
  double drop_ = 0, duplicate_ = 0, delay_ms_ = 0;  // frame faults in force
  std::vector<std::thread> movers_;
  std::mutex moves_mutex_;
  std::vector<std::string> moves_;  // by the index the move was started with
};

}  // namespace drift::ctl
