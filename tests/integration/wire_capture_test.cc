// What the office LAN sees (docs/architecture.md §4): tcpdump captures every packet of a
// two-daemon cluster and its driftctl client on loopback while a heat2d job runs, and nothing of
// it is in the capture — not the application's name, not the cluster's, not the job's result
// checksum. As a control, the same capture of a cluster started with test.plaintext does show
// all three (so the capture itself works). Needs root and tcpdump (skipped, said, without).
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "ctl/job_client.h"
#include "tests/integration/cluster_test_fixture.h"

extern char** environ;

namespace drift::test {
namespace {

using namespace std::chrono_literals;

constexpr const char* kTcpdump = "/usr/bin/tcpdump";

// tcpdump writing every packet of `ports` on loopback to `file`, stopped by the destructor.
class Capture {
 public:
  Capture(const std::string& file, std::uint16_t first_port, std::uint16_t last_port) {
    int err[2];
    if (::pipe(err) != 0) return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    posix_spawn_file_actions_addclose(&actions, err[0]);
    const std::string filter = "tcp portrange " + std::to_string(first_port) + "-" +
                               std::to_string(last_port);
    // -Z root: write the file as root (the test dir is private), not as the tcpdump user;
    // --immediate-mode: each packet at once, not when a buffer block fills (or a second passes).
    std::vector<std::string> args = {kTcpdump, "-i", "lo", "--immediate-mode", "-U", "-s", "0", "-Z", "root", "-w", file, filter};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, kTcpdump, &actions, nullptr, argv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
    ::close(err[1]);
    // Ready once it says it is listening (its first line on stderr).
    err_ = ::fdopen(err[0], "r");
    char line[512] = {};
    if (err_ && std::fgets(line, sizeof line, err_)) first_line_ = line;
  }
  ~Capture() { stop(); }
  bool listening() const { return pid_ > 0 && first_line_.find("listening on") != std::string::npos; }
  const std::string& first_line() const { return first_line_; }
  // Stops it; what it said on the way out ("N packets captured").
  std::string stop() {
    std::string said;
    if (pid_ <= 0) return said;
    ::kill(pid_, SIGINT);
    char line[512];
    while (err_ && std::fgets(line, sizeof line, err_)) said += line;
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    if (err_) std::fclose(err_);
    err_ = nullptr;
    return said;
  }

 private:
  pid_t pid_ = -1;
  FILE* err_ = nullptr;
  std::string first_line_;
};

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST_F(ClusterTest, ACaptureOfAJobOnTheWireShowsNothingOfIt) {
  if (::geteuid() != 0 || ::access(kTcpdump, X_OK) != 0) {
    GTEST_SKIP() << "needs root and " << kTcpdump;
  }
  for (const bool plaintext : {true, false}) {
    SCOPED_TRACE(plaintext ? "plaintext (the control)" : "TLS");
    if (cluster_) cluster_->down();
    ctl::LocalClusterOptions options;
    options.driftd = bin_dir() / "driftd";
    options.stop_with_parent = true;
    options.plaintext = plaintext;
    cluster_ = std::make_unique<ctl::LocalCluster>(dir_, options);
    const int slot = 42;
    const std::string file = (dir_ / (plaintext ? "plain.pcap" : "tls.pcap")).string();
    Capture capture(file, base_port_for(slot), base_port_for(slot) + 1);
    ASSERT_TRUE(capture.listening()) << "tcpdump: " << capture.first_line();
    ASSERT_NO_FATAL_FAILURE(start_cluster(2, slot));
    const JobSpec spec = ctl::job_spec("heat2d", 4, 30, {{"size", "64x64"}});
    auto connection = connect(1);
    ASSERT_NE(connection, nullptr);
    auto end = ctl::run_job(*connection, spec, nullptr, ctl::Clock::now() + 60s);
    ASSERT_TRUE(end.is_ok()) << end.error();
    ASSERT_TRUE(std::holds_alternative<JobResult>(*end)) << std::get<JobFailed>(*end).reason;
    const std::string checksum = std::get<JobResult>(*end).checksum;
    const std::string cluster_name = connection->daemon_hello().cluster;
    connection.reset();
    cluster_->down();
    const std::string said = capture.stop();
    const std::string wire = file_text(file);
    ASSERT_GT(wire.size(), 10000u) << "the capture is nearly empty; tcpdump: " << said
                                   << "; node 1 at " << cluster_->node_endpoint(1).to_string()
                                   << ", filter from " << base_port_for(slot);
    for (const std::string& secret : {std::string("heat2d"), cluster_name, checksum}) {
      const bool seen = wire.find(secret) != std::string::npos;
      EXPECT_EQ(seen, plaintext) << "'" << secret << "' " << (seen ? "is" : "is not")
                                 << " in the capture (" << wire.size() << " bytes)";
    }
  }
}

}  // namespace
}  // namespace drift::test
