// The job side of `driftctl fault run`: a thread that submits the scenario's jobs one after the
// other (each to its own `submit` daemon, which becomes its root), follows each to its end with
// driftctl's own job client, and records the outcome. With a scenario duration it starts the
// jobs again in turn until that time is up. The fault scheduler reads where the jobs are
// (job, step, root) to fire `at step N` faults and to resolve `root`. Thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "ctl/fault_record.h"
#include "ctl/local_cluster.h"

namespace drift::ctl {

class FaultJobs {
 public:
  using Clock = std::chrono::steady_clock;
  struct Now {
    int job = -1;  // index into records(); -1 before the first and between jobs
    std::uint64_t step = 0;
    int root = 0;
    std::uint64_t job_id = 0;  // the running job's id, once it has reported progress
    bool done = false;  // every job has ended
  };

  // `plans` carry their serial references; `duration_s` 0 runs each once.
  FaultJobs(const LocalCluster& cluster, std::vector<JobRecord> plans, double duration_s,
            Clock::time_point t0);
  ~FaultJobs();

  void start();
  void join();
  Now now() const;
  std::vector<JobRecord> records() const;

 private:
  void run_all();
  bool wait_reachable(int k) const;
  void run_one(JobRecord record);
  double since_t0() const;

  const LocalCluster& cluster_;
  std::vector<JobRecord> plans_;
  double duration_s_;
  Clock::time_point t0_;
  std::thread thread_;
  mutable std::mutex mutex_;
  Now now_;
  std::vector<JobRecord> records_;
};

}  // namespace drift::ctl
