// driftctl end to end, as a user runs it: local up, status --json, top, run --json (and
// --trace) on the cluster and --serial, tasks and migrate on a running job, usage and connection
// errors with their exit codes, local down.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "tests/integration/cluster_test_fixture.h"
#include "tests/integration/driftctl_process.h"
#include "tests/integration/poll.h"

namespace drift::test {
namespace {

namespace fs = std::filesystem;

class DriftctlCliTest : public ClusterTest {
 protected:
  std::string dir_arg() const { return " --dir " + dir_.string(); }
  std::string connection() const {
    return "--node 127.0.0.1:" + std::to_string(base_port_for(4)) + " --secret-file " +
           (dir_ / "secret").string() + " ";
  }
};

// The last line of what driftctl printed (stdout comes after stderr's line of the same failure).
std::string last_line(std::string out) {
  while (!out.empty() && out.back() == '\n') out.pop_back();
  const auto cut = out.rfind('\n');
  return cut == std::string::npos ? out : out.substr(cut + 1);
}

TEST_F(DriftctlCliTest, LocalUpStatusRunAndDown) {
  const auto up = driftctl("local up --nodes 3 --base-port " + std::to_string(base_port_for(4)) +
                           dir_arg() + " --base-config " + local_conf().string());
  ASSERT_EQ(up.exit_code, 0) << up.out;
  EXPECT_NE(up.out.find("3 daemons up in " + dir_.string()), std::string::npos) << up.out;
  // Each with its dashboard, on the ports after --http-port's default.
  EXPECT_NE(up.out.find("http://127.0.0.1:7482/"), std::string::npos) << up.out;

  const auto again = driftctl("local up --nodes 3 --base-port " +
                              std::to_string(base_port_for(4) + 5) + dir_arg());
  EXPECT_EQ(again.exit_code, 1) << again.out;
  EXPECT_NE(again.out.find("already running"), std::string::npos) << again.out;

  const auto status = driftctl(connection() + "status --json");
  ASSERT_EQ(status.exit_code, 0) << status.out;
  const auto nodes = nlohmann::json::parse(status.out)["nodes"];
  ASSERT_EQ(nodes.size(), 3u) << status.out;
  for (const auto& n : nodes) EXPECT_EQ(n["state"], "available") << status.out;

  const auto top = driftctl(connection() + "top --once --all");
  ASSERT_EQ(top.exit_code, 0) << top.out;
  EXPECT_NE(top.out.find("drift  3 nodes, 3 alive"), std::string::npos) << top.out;
  EXPECT_NE(top.out.find("127.0.0.1:" + std::to_string(base_port_for(4) + 2)), std::string::npos)
      << top.out;
  EXPECT_NE(top.out.find("no jobs"), std::string::npos) << top.out;
  EXPECT_EQ(driftctl(connection() + "top --interval 0.01").exit_code, 2);

  const std::string job = "run heat2d --size 128x96 --steps 30 --json";
  const fs::path trace = dir_ / "trace.jsonl";
  const auto cluster_run = driftctl(connection() + job + " --tasks 6 --trace " + trace.string());
  ASSERT_EQ(cluster_run.exit_code, 0) << cluster_run.out;
  const auto serial_run = driftctl(job + " --serial");
  ASSERT_EQ(serial_run.exit_code, 0) << serial_run.out;
  const auto c = nlohmann::json::parse(cluster_run.out);
  const auto s = nlohmann::json::parse(serial_run.out);
  EXPECT_EQ(c["checksum"], s["checksum"]);
  EXPECT_EQ(c["tasks"], 6);
  EXPECT_EQ(s["tasks"], 1);
  EXPECT_EQ(c["steps"], 30);
  EXPECT_TRUE(c["checksum"].is_string());
  EXPECT_TRUE(c["wall_s"].is_number());
  // --trace: submitted, the 30 steps in order, the end with each step's time.
  std::ifstream lines(trace);
  std::vector<nlohmann::json> events;
  for (std::string line; std::getline(lines, line);) events.push_back(nlohmann::json::parse(line));
  ASSERT_GE(events.size(), 32u);
  EXPECT_EQ(events.front()["event"], "submitted");
  EXPECT_EQ(events.front()["tasks"], 6);
  std::uint64_t last_step = 0;
  double last_t = 0;
  for (const auto& e : events) {
    EXPECT_GE(e["t"].get<double>(), last_t);
    last_t = e["t"].get<double>();
    if (e["event"] != "step") continue;
    EXPECT_EQ(e["step"].get<std::uint64_t>(), last_step + 1);
    last_step = e["step"].get<std::uint64_t>();
  }
  EXPECT_EQ(last_step, 30u);
  EXPECT_EQ(events.back()["event"], "done");
  EXPECT_EQ(events.back()["checksum"], c["checksum"]);
  EXPECT_EQ(events.back()["step_s"].size(), 30u);
  const fs::path svg = dir_ / "trace.svg";
  const int plotted = std::system(("python3 " + (fs::path(DRIFT_SOURCE_DIR) / "scripts" /
                                                 "plot-trace.py").string() +
                                   " " + trace.string() + " -o " + svg.string() + " > /dev/null")
                                      .c_str());
  EXPECT_EQ(plotted, 0);
  std::stringstream drawn;
  drawn << std::ifstream(svg).rdbuf();
  EXPECT_NE(drawn.str().find("<polyline"), std::string::npos) << drawn.str();
  EXPECT_NE(drawn.str().find("heat2d: 6 tasks, 30 steps"), std::string::npos) << drawn.str();

  const auto down = driftctl("local down" + dir_arg());
  EXPECT_EQ(down.exit_code, 0) << down.out;
  EXPECT_NE(down.out.find("node3"), std::string::npos) << down.out;
  EXPECT_TRUE(cluster().running_pids().empty());
}

// `driftctl run` of a job that never ends by itself, in a thread; the destructor takes the
// cluster down (which ends the run) and joins, so an early ASSERT cannot leave the thread behind.
class BackgroundRun {
 public:
  BackgroundRun(const std::string& run_args, std::string down_args)
      : down_args_(std::move(down_args)), thread_([this, run_args] { driftctl(run_args); }) {}
  ~BackgroundRun() {
    driftctl(down_args_);
    thread_.join();
  }

 private:
  std::string down_args_;
  std::thread thread_;
};

nlohmann::json tasks_of(const std::string& connection) {
  const auto listed = driftctl(connection + "tasks --json");
  if (listed.exit_code != 0) return nlohmann::json::array();
  return nlohmann::json::parse(listed.out)["tasks"];
}

std::uint64_t sum_of(const nlohmann::json& nodes, const char* counter) {
  std::uint64_t sum = 0;
  for (const auto& n : nodes) sum += n[counter].get<std::uint64_t>();
  return sum;
}

TEST_F(DriftctlCliTest, TasksAndMigrateOnARunningJob) {
  const int port = base_port_for(12);
  const std::string c = "--node 127.0.0.1:" + std::to_string(port) + " --secret-file " +
                        (dir_ / "secret").string() + " ";
  ASSERT_EQ(driftctl("local up --nodes 3 --base-port " + std::to_string(port) + dir_arg() +
                     " --base-config " + local_conf().string())
                .exit_code,
            0);
  BackgroundRun job(c + "run heat2d --size 256x256 --steps 1000000000 --tasks 6",
                    "local down" + dir_arg());
  nlohmann::json tasks;
  ASSERT_TRUE(poll_until(std::chrono::seconds(20), std::chrono::milliseconds(100),
                         [&] { return (tasks = tasks_of(c)).size() == 6; }));
  const std::string id = tasks[0]["job"].get<std::string>() + ":0";
  // Listed is not yet running (every node's worker up): a task moves once its job has stepped.
  ASSERT_TRUE(poll_until(std::chrono::seconds(30), std::chrono::milliseconds(100), [&] {
    const auto jobs = nlohmann::json::parse(driftctl(c + "jobs --json").out);
    return jobs.is_array() && !jobs.empty() && jobs[0].value("step", 0) > 0;
  })) << driftctl(c + "jobs --json").out;
  // `top` lists the running job (and refreshes; --once shows one frame).
  const auto top = driftctl(c + "top --once --all");
  ASSERT_EQ(top.exit_code, 0) << top.out;
  EXPECT_NE(top.out.find(tasks[0]["job"].get<std::string>()), std::string::npos) << top.out;
  EXPECT_NE(top.out.find("running"), std::string::npos) << top.out;
  const int from = tasks[0]["node"].get<int>();
  const int to = from % 3 + 1;
  EXPECT_EQ(tasks[0]["epoch"], 0);

  const auto moved = driftctl(c + "migrate " + id + " " + std::to_string(to));
  ASSERT_EQ(moved.exit_code, 0) << moved.out;
  const std::string expected = "moved " + id + " from node " + std::to_string(from) + " to node " +
                               std::to_string(to) + ": ";
  EXPECT_EQ(moved.out.rfind(expected, 0), 0u) << moved.out;
  tasks = tasks_of(c);
  ASSERT_EQ(tasks.size(), 6u);
  EXPECT_EQ(tasks[0]["node"], to);
  EXPECT_EQ(tasks[0]["epoch"], 1);

  const auto again = driftctl(c + "migrate " + id + " " + std::to_string(to));
  EXPECT_EQ(again.exit_code, 1) << again.out;
  EXPECT_NE(again.out.find("cannot move " + id), std::string::npos) << again.out;
  // A job nobody made (its root part names no node) is answered at once, not after --timeout.
  const auto nobodys = driftctl(c + "migrate 0x1:0 " + std::to_string(to) + " --timeout 20");
  EXPECT_EQ(nobodys.exit_code, 1) << nobodys.out;
  EXPECT_NE(nobodys.out.find("is not a live member of this cluster (no such job?)"),
            std::string::npos)
      << nobodys.out;

  // The responder learns the other nodes' counters from their heartbeats.
  nlohmann::json nodes;
  EXPECT_TRUE(poll_until(std::chrono::seconds(5), std::chrono::milliseconds(100), [&] {
    nodes = nlohmann::json::parse(driftctl(c + "status --json").out)["nodes"];
    return sum_of(nodes, "migrations_out") == 1 && sum_of(nodes, "migrations_in") == 1;
  })) << nodes;
  EXPECT_GT(sum_of(nodes, "bytes_moved"), 0u) << nodes;
}

TEST_F(DriftctlCliTest, UsageErrorsExitTwo) {
  EXPECT_EQ(driftctl("frobnicate").exit_code, 2);
  EXPECT_EQ(driftctl("run nosuchapp").exit_code, 2);
  const auto bad_size = driftctl("run heat2d --serial --size 12by12");
  EXPECT_EQ(bad_size.exit_code, 2) << bad_size.out;
  EXPECT_NE(bad_size.out.find("12by12"), std::string::npos) << bad_size.out;
  EXPECT_EQ(driftctl("status --node nonsense").exit_code, 2);
  EXPECT_EQ(driftctl("local up").exit_code, 2);
  // With --json, a script that reads stdout learns why as well.
  const auto json = driftctl("run heat2d --serial --size 12by12 --json");
  EXPECT_EQ(json.exit_code, 2) << json.out;
  const auto why = nlohmann::json::parse(last_line(json.out), nullptr, false);
  ASSERT_TRUE(why.is_object()) << json.out;
  EXPECT_EQ(why.value("exit", 0), 2) << json.out;
  EXPECT_NE(why.value("error", "").find("12by12"), std::string::npos) << json.out;
  // drift's own options are checked before anything is sent, as the root checks them.
  for (const auto& [bad, value] : {std::pair{"--checkpoint-steps x", "'x'"},
                                   std::pair{"--checkpoint-ms abc", "'abc'"},
                                   std::pair{"--memory 2Q", "'2Q'"}}) {
    const auto run = driftctl(std::string("run heat2d --serial --tasks 2 --steps 2 ") + bad);
    EXPECT_EQ(run.exit_code, 2) << bad << ": " << run.out;
    EXPECT_NE(run.out.find(std::string(bad).substr(0, std::string(bad).find(' ')) + " " + value),
              std::string::npos)
        << run.out;
  }
}

// An application's executable reads its own command line (`heat2d --serial ...`) as strictly
// as driftctl run: an option given twice or an explicit 0 count is a usage error naming it, and
// the reference reports the tasks it was asked with.
TEST_F(DriftctlCliTest, AnApplicationsOwnCommandLineIsStrict) {
  const std::string heat2d = (fs::path(DRIFT_BUILD_DIR) / "lib" / "drift" / "apps" / "heat2d");
  for (const std::string bad : {"--steps 3 --steps 4", "--size 8x8 --size=9x9", "--tasks 0",
                                "--steps=0"}) {
    const auto outcome = driftctl_as("", "--serial " + bad, heat2d);
    EXPECT_EQ(outcome.exit_code, 2) << bad << ": " << outcome.out;
    const std::string option = bad.substr(0, bad.find_first_of(" ="));
    EXPECT_NE(outcome.out.find(option), std::string::npos) << bad << ": " << outcome.out;
  }
  const auto huge = driftctl_as("", "--serial --tasks 5000000000", heat2d);
  EXPECT_EQ(huge.exit_code, 2) << huge.out;
  EXPECT_NE(huge.out.find("--tasks 5000000000: too large (at most 4294967295)"), std::string::npos)
      << huge.out;
  const auto folder = driftctl("run " + dir_.string() + " --tasks 2");
  EXPECT_EQ(folder.exit_code, 2) << folder.out;
  EXPECT_NE(folder.out.find(dir_.string() + " is a directory, not an executable"),
            std::string::npos)
      << folder.out;
  const auto good = driftctl_as("", "--serial --steps 2 --tasks 3 --size 16x16 --json", heat2d);
  ASSERT_EQ(good.exit_code, 0) << good.out;
  const auto j = nlohmann::json::parse(good.out);
  EXPECT_EQ(j.at("tasks"), 3) << good.out;
  EXPECT_EQ(j.at("steps"), 2) << good.out;
}

TEST_F(DriftctlCliTest, NoDaemonExitsThree) {
  const std::string secret = (dir_ / "secret").string();
  {
    FILE* f = std::fopen(secret.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("0123456789abcdef0123456789abcdef\n", f);
    std::fclose(f);
  }
  const auto status = driftctl("--node 127.0.0.1:" + std::to_string(base_port_for(4) + 19) +
                               " --secret-file " + secret + " status");
  EXPECT_EQ(status.exit_code, 3) << status.out;
  EXPECT_NE(status.out.find("cannot connect to 127.0.0.1:"), std::string::npos) << status.out;
  const auto run = driftctl("--node 127.0.0.1:" + std::to_string(base_port_for(4) + 19) +
                            " --secret-file " + secret + " run heat2d --tasks 2 --json");
  EXPECT_EQ(run.exit_code, 3) << run.out;
  const auto why = nlohmann::json::parse(last_line(run.out), nullptr, false);
  ASSERT_TRUE(why.is_object()) << run.out;
  EXPECT_EQ(why.value("exit", 0), 3) << run.out;
  EXPECT_NE(why.value("error", "").find("cannot connect to 127.0.0.1:"), std::string::npos)
      << run.out;
}

TEST_F(DriftctlCliTest, ASecretFileThatIsNotThereExitsTwoNamingIt) {
  const std::string missing = (dir_ / "no-such-secret").string();
  const auto status = driftctl("--node 127.0.0.1:" + std::to_string(base_port_for(4) + 19) +
                               " --secret-file " + missing + " status");
  EXPECT_EQ(status.exit_code, 2) << status.out;
  EXPECT_NE(status.out.find(missing), std::string::npos) << status.out;
  EXPECT_NE(status.out.find("--secret-file"), std::string::npos) << status.out;
}

TEST_F(DriftctlCliTest, HelpDescribesEveryCommand) {
  const auto help = driftctl("--help");
  EXPECT_EQ(help.exit_code, 0);
  for (const char* word :
       {"status", "run APP", "local up", "local down", "--node", "--secret-file"}) {
    EXPECT_NE(help.out.find(word), std::string::npos) << word;
  }
  const auto run_help = driftctl("run heat2d --help");
  EXPECT_EQ(run_help.exit_code, 0);
  EXPECT_NE(run_help.out.find("--size"), std::string::npos) << run_help.out;
  EXPECT_EQ(driftctl("status --help").exit_code, 0);
  EXPECT_EQ(driftctl("local up --help").exit_code, 0);
}

}  // namespace
}  // namespace drift::test
