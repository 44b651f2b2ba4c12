// A gtest fixture owning a LocalCluster of real driftd processes (from DRIFT_BIN_DIR) in a fresh
// temp dir, on ports 17400 + 20 * slot + (0..19): each test passes its own slot, so tests never
// share ports even when ctest runs them side by side. TearDown always stops the daemons, prints
// the end of every log when the test failed, and removes the dir.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "ctl/client_connection.h"
#include "ctl/job_client.h"
#include "ctl/job_executables.h"
#include "ctl/local_cluster.h"

namespace drift::test {

inline constexpr int kBasePort = 17400;
inline constexpr int kPortsPerTest = 20;

std::filesystem::path bin_dir();
std::filesystem::path local_conf();
std::uint16_t base_port_for(int slot);
// The serial reference of `spec` (its runtime options dropped), computed by the application's
// own executable as `driftctl run APP --serial` does: the spec with the application's defaults
// filled in (runtime options kept), and its checksum.
struct ReferenceRun {
  JobSpec spec;
  std::string checksum;
};
Result<ReferenceRun> reference_run(JobSpec spec);
// Its checksum alone, or what went wrong.
std::string serial_checksum(const JobSpec& spec);

// A job of the user's own executables (one per architecture, ctl/job_executables.h), shipped
// with it as `driftctl run PATH --binary ARCH=FILE` does: uploaded to the daemon on
// `connection`, then run until `deadline`.
Result<ctl::JobEndMessage> run_own_executables(ctl::ClientConnection& connection,
                                               const std::vector<ctl::JobExecutable>& executables,
                                               JobSpec spec, const ctl::ProgressHandler& progress,
                                               ctl::Clock::time_point deadline,
                                               const ctl::NoticeHandler& notice = {});

// The LocalCluster options every test starts from: the build's driftd, daemons that die with the
// test process, no HTTP endpoint.
ctl::LocalClusterOptions test_cluster_options();

class ClusterTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  // The daemons' base config: conf/local.conf with balancing off (balance.strategy = none), so
  // tasks placed or moved by a test stay where it put them; a test of the balancer passes
  // --balance.strategy=... (the command line wins). Written into the test's dir.
  std::filesystem::path base_config();

  // Starts `nodes` daemons with conf/local.conf; fails the test (fatally) if they do not come up.
  void start_cluster(int nodes, int slot);
  // Until node k has a load report (heartbeat) from every member, so that placement sees every
  // node's capacity and spreads a job over all of them.
  void wait_for_load_reports(int k);
  ctl::LocalCluster& cluster() { return *cluster_; }
  ctl::ConnectOptions connect_options(int k);
  std::unique_ptr<ctl::ClientConnection> connect(int k);
  // Node k's own counters, asked of node k (another node only holds the copy from its last
  // heartbeat, which may predate what the test just did).
  Result<NodeCounters> counters_of(int k);
  std::string log_of(int k) const;
  // "running", "exited with status 1", "killed by signal 11 (Segmentation fault)": what became
  // of daemon k (reaps it if it ended; only for daemons this test started).
  std::string fate_of(int k) const;

  std::filesystem::path dir_;
  std::unique_ptr<ctl::LocalCluster> cluster_;
};

}  // namespace drift::test
