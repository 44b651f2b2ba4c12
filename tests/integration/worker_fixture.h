// What the worker integration tests share: a local cluster whose daemons get extra settings, the
// test application `faulty` (tests/apps/faulty) shipped with a job as a user's own executable,
// its serial reference, the worker processes of a daemon, and a directory a worker (which may
// run as another user) can write to.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ctl/job_client.h"
#include "tests/integration/cluster_test_fixture.h"

namespace drift::test {

// build/test-apps/faulty and build/test-apps/forger.
std::filesystem::path faulty();
std::filesystem::path forger();

// The worker processes of a daemon: its children.
std::set<pid_t> workers_of(pid_t daemon);

// The cpu line of /proc/PID/cgroup ("/drift-1-77-guests"); empty if none.
std::string cpu_cgroup_of(pid_t pid);

class WorkerTest : public ClusterTest {
 protected:
  void start(int nodes, int slot, std::vector<std::string> args = {},
             std::map<int, std::vector<std::string>> node_args = {});

  struct Run {
    Result<ctl::JobEndMessage> end = Status::error("not run");
    std::vector<JobNotice> notices;
  };

  // `spec` of the executable at `path`, shipped with the job as a user's own is, submitted to
  // node 1; `during` runs once the job has made `after` steps.
  Run run_own(const std::filesystem::path& path, JobSpec spec, std::uint64_t after = 0,
              std::function<void()> during = {});
  std::string own_serial(const std::filesystem::path& path, JobSpec spec);

  // A file a worker (which may run as another user) can make: in a directory anyone may write.
  std::string shared_file(const std::string& name);
  void TearDown() override;

  static std::string notices_text(const Run& run);

  // Daemon K is started through launchers_[K] (LocalClusterOptions::launchers), if set before
  // start().
  std::map<int, std::vector<std::string>> launchers_;

 private:
  std::filesystem::path shared_dir_;
};

}  // namespace drift::test
