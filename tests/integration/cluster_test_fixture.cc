#include "tests/integration/cluster_test_fixture.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "ctl/app_executable.h"
#include "ctl/status_query.h"
#include "tests/integration/poll.h"

namespace fs = std::filesystem;

namespace drift::test {

fs::path bin_dir() { return DRIFT_BIN_DIR; }
fs::path local_conf() { return fs::path(DRIFT_SOURCE_DIR) / "conf" / "local.conf"; }

std::uint16_t base_port_for(int slot) {
  return static_cast<std::uint16_t>(kBasePort + kPortsPerTest * slot);
}

Result<ReferenceRun> reference_run(JobSpec spec) {
  JobSpec serial = spec;
  serial.runtime.clear();
  auto answer = ctl::ask_app_about(spec.app, serial, AppQueryKind::kSerial);
  if (!answer) return answer.status();
  answer->spec.runtime = spec.runtime;
  return ReferenceRun{std::move(answer->spec), answer->checksum};
}

std::string serial_checksum(const JobSpec& spec) {
  auto run = reference_run(spec);
  return run ? run->checksum : "serial run failed: " + run.error();
}

Result<ctl::JobEndMessage> run_own_executables(ctl::ClientConnection& connection,
                                               const std::vector<ctl::JobExecutable>& executables,
                                               JobSpec spec, const ctl::ProgressHandler& progress,
                                               ctl::Clock::time_point deadline,
                                               const ctl::NoticeHandler& notice) {
  if (Status st = ctl::upload_executables(connection, executables, 1u << 20,
                                          std::chrono::seconds(60));
      !st) {
    return st;
  }
  ctl::add_to_spec(spec, executables);
  return ctl::run_job(connection, spec, progress, deadline, notice);
}

ctl::LocalClusterOptions test_cluster_options() {
  ctl::LocalClusterOptions options;
  options.driftd = bin_dir() / "driftd";
  options.stop_with_parent = true;
  return options;
}

void ClusterTest::SetUp() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp != nullptr && *tmp ? tmp : "/tmp") + "/drift-it-XXXXXX";
  ASSERT_NE(::mkdtemp(pattern.data()), nullptr) << "mkdtemp " << pattern;
  dir_ = pattern;
  auto options = test_cluster_options();
  // DRIFT_TEST_DEBUG: the daemons log at debug level.
  if (std::getenv("DRIFT_TEST_DEBUG") != nullptr) options.extra_args.push_back("--log.level=debug");
  cluster_ = std::make_unique<ctl::LocalCluster>(dir_, std::move(options));
}

void ClusterTest::TearDown() {
  if (!cluster_) return;
  if (HasFailure()) {
    for (int k = 1; k <= cluster_->nodes(); ++k) {
      std::cerr << "--- end of " << cluster_->log_file(k).string() << ":\n"
                << cluster_->log_tail(k, 30);
    }
  }
  cluster_->down();
  if (HasFailure() && std::getenv("DRIFT_KEEP_TEST_DIRS") != nullptr) {
    std::cerr << "kept " << dir_.string() << " (DRIFT_KEEP_TEST_DIRS)\n";
    return;
  }
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

fs::path ClusterTest::base_config() {
  const fs::path file = dir_ / "base.conf";
  if (!fs::exists(file)) {
    std::ifstream in(local_conf());
    std::ofstream out(file, std::ios::trunc);
    out << in.rdbuf() << "\n[balance]\nstrategy = none\n";
  }
  return file;
}

void ClusterTest::start_cluster(int nodes, int slot) {
  const Status s = cluster_->up(nodes, base_port_for(slot), base_config());
  ASSERT_TRUE(s.is_ok()) << s.message();
}

void ClusterTest::wait_for_load_reports(int k) {
  const bool reported = poll_until(std::chrono::seconds(5), std::chrono::milliseconds(50), [&] {
    auto reply = ctl::query_status(connect_options(k), std::chrono::seconds(2));
    if (!reply || static_cast<int>(reply->nodes.size()) != cluster_->nodes()) return false;
    for (const auto& n : reply->nodes) {
      if (n.load.free_memory_bytes == 0) return false;  // no load index received yet
    }
    return true;
  });
  EXPECT_TRUE(reported) << "node " << k << " has no load report from some member after 5 s";
}

ctl::ConnectOptions ClusterTest::connect_options(int k) {
  auto options = cluster_->connect_options(k);
  EXPECT_TRUE(options.is_ok()) << options.error();
  return options ? *options : ctl::ConnectOptions{};
}

std::unique_ptr<ctl::ClientConnection> ClusterTest::connect(int k) {
  auto connection = ctl::ClientConnection::open(connect_options(k));
  EXPECT_TRUE(connection.is_ok()) << connection.error();
  return connection ? std::move(connection).value() : nullptr;
}

Result<NodeCounters> ClusterTest::counters_of(int k) {
  auto reply = ctl::query_status(connect_options(k), std::chrono::seconds(5));
  if (!reply) return reply.status();
  const NodeStatus* self = ctl::find_node(*reply, static_cast<std::uint32_t>(k));
  if (!self) return Status::error("node " + std::to_string(k) + " does not list itself");
  return self->counters;
}

std::string ClusterTest::log_of(int k) const {
  std::ifstream in(cluster_->log_file(k));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string ClusterTest::fate_of(int k) const {
  int status = 0;
  const pid_t pid = cluster_->pid(k);
  const pid_t reaped = ::waitpid(pid, &status, WNOHANG);
  if (reaped == 0) return "running";
  if (reaped != pid) return "gone (not our child)";
  if (WIFSIGNALED(status)) {
    return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
           ::strsignal(WTERMSIG(status)) + ")";
  }
  return "exited with status " + std::to_string(WEXITSTATUS(status));
}

}  // namespace drift::test
