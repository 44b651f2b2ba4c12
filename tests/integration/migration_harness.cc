#include "tests/integration/migration_harness.h"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

#include "ctl/app_executable.h"
#include "ctl/daemon_process.h"
#include "ctl/local_node_config.h"
#include "ctl/migration_client.h"
#include "ctl/pid_file.h"
#include "ctl/status_query.h"
#include "ctl/tasks_query.h"
#include "protocol/codec.h"
#include "tests/integration/poll.h"
#include "tests/integration/sanitized_build.h"

namespace fs = std::filesystem;

namespace drift::test {

namespace {
// A move of a few MB on a busy machine. Instrumented, every copy of a state is checked byte by
// byte: a 100 MB move that takes 1-2 s took 4-13 s under ThreadSanitizer on the 2-core machine.
constexpr auto kRoundTrip = std::chrono::seconds(kSanitizedBuild ? 45 : 15);
constexpr auto kQueryTimeout = std::chrono::milliseconds(5000);
}  // namespace


BackgroundJob::BackgroundJob(std::unique_ptr<ctl::ClientConnection> connection, JobSpec spec,
                             std::chrono::seconds limit)
    : connection_(std::move(connection)) {
  thread_ =
      std::thread([this, spec = std::move(spec), limit]() mutable { run(std::move(spec), limit); });
}

BackgroundJob::~BackgroundJob() {
  if (thread_.joinable()) thread_.join();
}

void BackgroundJob::run(JobSpec spec, std::chrono::seconds limit) {
  const auto begin = ctl::Clock::now();
  auto end = ctl::run_job(
      *connection_, spec,
      [this](const JobProgress& p) {
        std::lock_guard lock(mu_);
        id_ = p.job;
        steps_ = p.step;
        changed_.notify_all();
      },
      begin + limit);
  std::lock_guard lock(mu_);
  seconds_ = std::chrono::duration<double>(ctl::Clock::now() - begin).count();
  outcome_ = std::move(end);
  done_ = true;
  changed_.notify_all();
}

bool BackgroundJob::wait_started(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  changed_.wait_for(lock, timeout, [this] { return id_ != 0 || done_; });
  return id_ != 0 && !done_;
}

bool BackgroundJob::wait_done(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mu_);
  return changed_.wait_for(lock, timeout, [this] { return done_; });
}

bool BackgroundJob::done() const {
  std::lock_guard lock(mu_);
  return done_;
}

std::uint64_t BackgroundJob::id() const {
  std::lock_guard lock(mu_);
  return id_;
}

std::uint64_t BackgroundJob::steps_done() const {
  std::lock_guard lock(mu_);
  return steps_;
}

Result<ctl::JobEndMessage> BackgroundJob::outcome() const {
  std::lock_guard lock(mu_);
  if (!outcome_) return Status::error("the job has not ended yet");
  return *outcome_;
}

double BackgroundJob::seconds() const {
  std::lock_guard lock(mu_);
  return seconds_;
}

::testing::AssertionResult ended_with_checksum(const Result<ctl::JobEndMessage>& outcome,
                                               const std::string& checksum) {
  if (!outcome) return ::testing::AssertionFailure() << "no end of the job: " << outcome.error();
  if (auto* failed = std::get_if<JobFailed>(&outcome.value())) {
    return ::testing::AssertionFailure() << "job failed: " << failed->reason;
  }
  const auto& result = std::get<JobResult>(outcome.value());
  if (result.checksum != checksum) {
    return ::testing::AssertionFailure()
           << "checksum " << result.checksum << ", the serial reference's is " << checksum;
  }
  return ::testing::AssertionSuccess();
}

Result<MigrationReport> migrate(ctl::ClientConnection& connection, TaskId task,
                                std::uint32_t dest) {
  return ctl::request_migration(connection, MigrateRequest{task, dest},
                                ctl::Clock::now() + kRoundTrip);
}

Result<std::vector<MigrationReport>> migrate_together(ctl::ClientConnection& connection,
                                                      const std::vector<MigrateRequest>& requests) {
  for (const auto& r : requests) {
    if (Status st = connection.send(r); !st) return st;
  }
  std::vector<MigrationReport> reports;
  const auto deadline = ctl::Clock::now() + kRoundTrip;
  while (reports.size() < requests.size()) {
    auto msg = connection.receive(deadline);
    if (!msg) {
      return Status::error("after " + std::to_string(reports.size()) + " of " +
                           std::to_string(requests.size()) + " migration reports: " + msg.error());
    }
    auto* report = std::get_if<MigrationReport>(&*msg);
    if (!report)
      return Status::error(std::string("expected a MigrationReport, got a ") +
                           to_string(type_of(*msg)));
    reports.push_back(std::move(*report));
  }
  return reports;
}

bool job_is_ending(const MigrationReport& report) {
  return !report.ok && (report.reason.find("finished") != std::string::npos ||
                        report.reason.find("not found") != std::string::npos ||
                        report.reason.find("job ended") != std::string::npos);
}

std::uint32_t random_other_node(std::uint32_t current, int nodes, std::mt19937& rng) {
  std::uniform_int_distribution<std::uint32_t> pick(1, static_cast<std::uint32_t>(nodes) - 1);
  const std::uint32_t n = pick(rng);
  return n >= current ? n + 1 : n;
}

std::string describe(const NodeCounters& c) {
  return "moves out " + std::to_string(c.migrations_out) + ", in " +
         std::to_string(c.migrations_in) + ", state " + std::to_string(c.bytes_moved) +
         " B, forwarded " + std::to_string(c.messages_forwarded) + ", location updates " +
         std::to_string(c.location_updates);
}

Result<std::map<std::uint32_t, TaskInfo>> task_table(ctl::ClientConnection& connection,
                                                     std::uint64_t job) {
  auto reply = ctl::query_tasks(connection, kQueryTimeout);
  if (!reply) return reply.status();
  std::map<std::uint32_t, TaskInfo> table;
  for (const TaskInfo& t : reply->tasks) {
    if (t.task.job == job) table[t.task.index] = t;
  }
  return table;
}

void MigrationClusterTest::TearDown() {
  if (cluster_ && HasFailure()) {
    for (int k = cluster_->nodes() + 1; k <= node_count_; ++k) {
      std::cerr << "--- end of " << cluster_->log_file(k).string() << ":\n"
                << cluster_->log_tail(k, 30);
    }
  }
  ClusterTest::TearDown();
}

void MigrationClusterTest::start_nodes(int plain, int slot,
                                       const std::vector<std::string>& plain_args,
                                       const std::vector<std::vector<std::string>>& special) {
  ctl::LocalClusterOptions options;
  options.driftd = bin_dir() / "driftd";
  options.stop_with_parent = true;
  options.extra_args = plain_args;
  cluster_ = std::make_unique<ctl::LocalCluster>(dir_, options);
  node_count_ = plain + static_cast<int>(special.size());
  ASSERT_NO_FATAL_FAILURE(start_cluster(plain, slot));
  for (std::size_t i = 0; i < special.size(); ++i) {
    ASSERT_NO_FATAL_FAILURE(start_special(plain + 1 + static_cast<int>(i), special[i]));
  }
  ASSERT_TRUE(poll_until(std::chrono::seconds(20), std::chrono::milliseconds(100),
                         [&] { return all_see_everyone(); }))
      << "the " << node_count_ << " daemons do not all see each other alive after 20 s";
  const bool reported = poll_until(std::chrono::seconds(5), std::chrono::milliseconds(50), [&] {
    auto reply = ctl::query_status(connect_options(1), std::chrono::seconds(2));
    if (!reply || static_cast<int>(reply->nodes.size()) != node_count_) return false;
    return std::all_of(reply->nodes.begin(), reply->nodes.end(),
                       [](const NodeStatus& n) { return n.load.free_memory_bytes != 0; });
  });
  ASSERT_TRUE(reported) << "node 1 has no load report from some member after 5 s";
}

// As LocalCluster starts its daemons, with `args` as the extra settings.
void MigrationClusterTest::start_special(int k, const std::vector<std::string>& args) {
  std::ifstream in(base_config());
  std::ostringstream base;
  base << in.rdbuf();
  const fs::path abs_dir = fs::absolute(dir_);
  ctl::LocalNodeSettings node;
  node.id = static_cast<std::uint32_t>(k);
  node.name = "node" + std::to_string(k);
  node.port = cluster_->node_endpoint(k).port;
  node.data_dir = abs_dir / node.name;
  node.secret_file = fs::absolute(cluster_->secret_file());
  node.seeds = {cluster_->node_endpoint(1).to_string()};
  fs::create_directories(node.data_dir);
  {
    std::ofstream out(cluster_->config_file(k), std::ios::trunc);
    out << ctl::render_local_node_config(base.str(), node);
    ASSERT_TRUE(out.good()) << "cannot write " << cluster_->config_file(k);
  }
  ctl::SpawnSpec spec{bin_dir() / "driftd",
                      {"--config", fs::absolute(cluster_->config_file(k)).string()},
                      cluster_->log_file(k),
                      /*stop_with_parent=*/true};
  spec.args.insert(spec.args.end(), args.begin(), args.end());
  auto pid = ctl::spawn_detached(spec);
  ASSERT_TRUE(pid.is_ok()) << "node " << k << ": " << pid.error();
  Status written = ctl::write_pid_file(cluster_->pid_file(k), *pid);
  ASSERT_TRUE(written.is_ok()) << written.message();
}

bool MigrationClusterTest::all_see_everyone() {
  for (int k = 1; k <= node_count_; ++k) {
    auto reply = ctl::query_status(connect_options(k), std::chrono::seconds(1));
    if (!reply) return false;
    const auto alive = std::count_if(reply->nodes.begin(), reply->nodes.end(), [](const auto& n) {
      return n.member.state == MemberState::kAlive;
    });
    if (alive != node_count_) return false;
  }
  return true;
}

NodeCounters MigrationClusterTest::total_counters() {
  NodeCounters sum;
  for (int k = 1; k <= node_count_; ++k) {
    auto c = counters_of(k);
    EXPECT_TRUE(c.is_ok()) << c.error();
    if (!c) continue;
    sum.migrations_out += c->migrations_out;
    sum.migrations_in += c->migrations_in;
    sum.bytes_moved += c->bytes_moved;
    sum.messages_forwarded += c->messages_forwarded;
    sum.location_updates += c->location_updates;
  }
  return sum;
}

}  // namespace drift::test
