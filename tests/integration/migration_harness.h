// What the migration integration tests share: a cluster whose daemons get extra per-node settings
// (LocalCluster gives every daemon the same config, so nodes past the first `plain` ones are
// started here), a job that runs on its own connection in a background thread while the test
// moves its tasks on another, and small client round trips (migrate, where is every task, a
// node's own counters). Used from the test thread only, except BackgroundJob, which is
// thread-safe.
#pragma once

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "ctl/client_connection.h"
#include "ctl/job_client.h"
#include "protocol/messages.h"
#include "tests/integration/cluster_test_fixture.h"

namespace drift::test {

// A job submitted on `connection` and followed to its end by a thread of its own. The job id is
// known once the first JobProgress arrived.
class BackgroundJob {
 public:
  BackgroundJob(std::unique_ptr<ctl::ClientConnection> connection, JobSpec spec,
                std::chrono::seconds limit);
  ~BackgroundJob();
  BackgroundJob(const BackgroundJob&) = delete;
  BackgroundJob& operator=(const BackgroundJob&) = delete;

  // True once the job id is known; false if the job ended first or `timeout` passed.
  bool wait_started(std::chrono::milliseconds timeout);
  // True once the job ended (result, failure or a connection error).
  bool wait_done(std::chrono::milliseconds timeout);
  bool done() const;
  std::uint64_t id() const;
  std::uint64_t steps_done() const;
  // Valid once done(): the end, and the seconds from submission to it.
  Result<ctl::JobEndMessage> outcome() const;
  double seconds() const;

 private:
  void run(JobSpec spec, std::chrono::seconds limit);

  std::unique_ptr<ctl::ClientConnection> connection_;
  mutable std::mutex mu_;
  std::condition_variable changed_;
  std::uint64_t id_ = 0;
  std::uint64_t steps_ = 0;
  bool done_ = false;
  std::optional<Result<ctl::JobEndMessage>> outcome_;
  double seconds_ = 0;
  std::thread thread_;
};

// Success if the job ended with a JobResult whose checksum is `checksum`.
::testing::AssertionResult ended_with_checksum(const Result<ctl::JobEndMessage>& outcome,
                                               const std::string& checksum);

// One MigrateRequest round trip.
Result<MigrationReport> migrate(ctl::ClientConnection& connection, TaskId task, std::uint32_t dest);
// Sends every request before reading any report, so the moves run at the same time; the reports
// come back in the order the moves ended.
Result<std::vector<MigrationReport>> migrate_together(ctl::ClientConnection& connection,
                                                      const std::vector<MigrateRequest>& requests);
// A refusal that only says the job is (about to be) over.
bool job_is_ending(const MigrationReport& report);

// A node of 1..nodes other than `current`, uniformly.
std::uint32_t random_other_node(std::uint32_t current, int nodes, std::mt19937& rng);

// "moves out 3, in 3, state 1234 B, forwarded 5, location updates 7".
std::string describe(const NodeCounters& c);

// The job's tasks by index, as their hosts report them (node, epoch) plus forwarded counts.
Result<std::map<std::uint32_t, TaskInfo>> task_table(ctl::ClientConnection& connection,
                                                     std::uint64_t job);

class MigrationClusterTest : public ClusterTest {
 protected:
  void TearDown() override;

  // `plain` daemons through LocalCluster with the extra "--key=value" settings `plain_args`, then
  // one more per entry of `special`, with that entry's settings instead. Waits until every daemon
  // sees all alive and node 1 has every member's load report. Fatal failure if they do not.
  void start_nodes(int plain, int slot, const std::vector<std::string>& plain_args,
                   const std::vector<std::vector<std::string>>& special = {});
  int node_count() const { return node_count_; }
  NodeCounters total_counters();

 private:
  void start_special(int k, const std::vector<std::string>& args);
  bool all_see_everyone();

  int node_count_ = 0;
};

}  // namespace drift::test
