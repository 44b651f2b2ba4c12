// Jobs outlive the driftctl that submitted them (docs/architecture.md §6.6), as people use it:
// `submit` returns with the id and the job finishes with nobody attached, its result fetched
// later with `result`; `run` interrupted with SIGINT only detaches; `cancel` from another shell
// is its owner's or an admin's; `jobs` lists one's own, or everyone's with --all.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <fstream>
#include <regex>
#include <sstream>

#include "ctl/job_control.h"
#include "tests/integration/people_fixture.h"
#include "tests/integration/sanitized_build.h"

extern char** environ;

namespace drift::test {
namespace {

using namespace std::chrono_literals;

constexpr int kDetachedJobSlot = 43;
const std::string kDetachedJob = "heat2d --tasks 6 --steps 400 --size 96x96";

class DetachedJobTest : public PeopleTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    ASSERT_NO_FATAL_FAILURE(start_cluster(3, kDetachedJobSlot));
  }
  // `driftctl --node NODE1 AUTH run RUN_ARGS` as a child of its own, its output (stdout and
  // stderr) in `out_file`, its stdin `stdin_path` (default: this process's).
  pid_t spawn_run(const std::vector<std::string>& auth, const std::vector<std::string>& run_args,
                  const std::string& out_file, const std::string& stdin_path = "") {
    const std::string driftctl_path = (bin_dir() / "driftctl").string();
    std::vector<std::string> argv = {driftctl_path, "--node",
                                     cluster_->node_endpoint(1).to_string()};
    argv.insert(argv.end(), auth.begin(), auth.end());
    argv.push_back("run");
    argv.insert(argv.end(), run_args.begin(), run_args.end());
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, out_file.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&files, STDOUT_FILENO, STDERR_FILENO);
    if (!stdin_path.empty()) {
      posix_spawn_file_actions_addopen(&files, STDIN_FILENO, stdin_path.c_str(), O_RDWR, 0);
    }
    pid_t pid = -1;
    const int spawned =
        posix_spawn(&pid, driftctl_path.c_str(), &files, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&files);
    EXPECT_EQ(spawned, 0);
    return spawned == 0 ? pid : -1;
  }
  // The id of the job node 1 lists (as the cluster secret sees it) once it has made progress;
  // "" if none did within 30 s.
  std::string wait_for_progress() {
    std::string id;
    const bool running = poll_until(30s, 50ms, [&] {
      const auto jobs = driftctl(node() + "--secret-file " + secret_file() + " jobs --all --json");
      id = job_id_in(jobs.out);
      return !id.empty() && jobs.out.find("\"step\":0,") == std::string::npos;
    });
    return running ? id : "";
  }
  static std::string text_of(const std::string& file) {
    std::stringstream said;
    said << std::ifstream(file).rdbuf();
    return said.str();
  }
  // An endless `run` as the owner of `token`, stdin `input`: once it has made progress, Ctrl-C,
  // then (once driftctl offers it) Ctrl-C again. Sets its `pid` and job `id`.
  void interrupt_twice(const std::string& token, const std::string& input,
                       const std::string& out_file, pid_t& pid, std::string& id) {
    pid = spawn_run({"--token-file", token},
                    {"heat2d", "--tasks", "6", "--steps", "100000000", "--size", "96x96"},
                    out_file, input);
    ASSERT_GT(pid, 0);
    id = wait_for_progress();
    ASSERT_FALSE(id.empty()) << "no progress listed";
    ASSERT_EQ(::kill(pid, SIGINT), 0);
    ASSERT_TRUE(poll_until(5s, 20ms, [&] {
      return text_of(out_file).find("to be asked whether to cancel") != std::string::npos;
    })) << text_of(out_file);
    ASSERT_EQ(::kill(pid, SIGINT), 0);
  }
  static int exit_status_of(pid_t pid) {
    int status = 0;
    EXPECT_EQ(::waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
};

TEST_F(DetachedJobTest, ASubmittedJobFinishesWithNobodyAttachedAndItsResultIsFetchedLater) {
  const std::string alice = make_token("alice", "user");
  const std::string bob = make_token("bob", "user");
  const auto serial = driftctl("run " + kDetachedJob + " --serial");
  ASSERT_EQ(serial.exit_code, 0) << serial.out;

  const auto submitted = as(alice, "submit " + kDetachedJob + " --name overnight");
  ASSERT_EQ(submitted.exit_code, 0) << submitted.out;
  const std::string id = job_id_in(submitted.out);
  ASSERT_FALSE(id.empty()) << submitted.out;
  expect_logged("alice submitted a heat2d job (6 tasks) to run on its own");
  ASSERT_TRUE(wait_for_state(alice, id, "done", 60s)) << as(alice, "jobs --all").out;

  const auto result = as(alice, "result " + id);
  EXPECT_EQ(result.exit_code, 0) << result.out;
  EXPECT_EQ(checksum_line(result.out), checksum_line(serial.out)) << result.out;
  const auto listed = as(alice, "jobs");
  EXPECT_NE(listed.out.find("overnight"), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find("alice"), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find("400/400"), std::string::npos) << listed.out;

  // Bob sees it only with --all, and may not fetch its result.
  EXPECT_EQ(as(bob, "jobs").out.find(id), std::string::npos);
  EXPECT_NE(as(bob, "jobs --all").out.find(id), std::string::npos);
  const auto refused = as(bob, "result " + id);
  EXPECT_EQ(refused.exit_code, 4) << refused.out;
  EXPECT_NE(refused.out.find("this job is alice's"), std::string::npos) << refused.out;
}

TEST_F(DetachedJobTest, AFinishedJobsResultOutlivesItsRootOnTheDeputy) {
  const std::string alice = make_token("alice", "user");
  const auto serial = driftctl("run " + kDetachedJob + " --serial");
  ASSERT_EQ(serial.exit_code, 0) << serial.out;
  const auto submitted = as(alice, "submit " + kDetachedJob);
  ASSERT_EQ(submitted.exit_code, 0) << submitted.out;
  const std::string id = job_id_in(submitted.out);
  ASSERT_TRUE(wait_for_state(alice, id, "done", 60s)) << as(alice, "jobs --all").out;
  ASSERT_TRUE(cluster().kill(1, SIGKILL).is_ok());  // the root, with the result it kept
  const std::string at_node_2 =
      "--node " + cluster_->node_endpoint(2).to_string() + " --token-file " + alice + " ";
  const auto result = driftctl(at_node_2 + "result " + id);
  EXPECT_EQ(result.exit_code, 0) << result.out;
  EXPECT_EQ(checksum_line(result.out), checksum_line(serial.out)) << result.out;
  const auto listed = driftctl(at_node_2 + "jobs");
  EXPECT_NE(listed.out.find(id), std::string::npos) << listed.out;
}

TEST_F(DetachedJobTest, RunInterruptedWithSigintDetachesAndTheJobGoesOnToItsResult) {
  // Long enough to be interrupted mid-run; a sanitized build's heat2d is ~8 times slower (at
  // 20000 steps TSan's run outlasted the test's 180 s).
  const std::string steps = kSanitizedBuild ? "3000" : "20000";
  const auto serial = driftctl("run heat2d --tasks 6 --steps " + steps + " --size 96x96 --serial");
  ASSERT_EQ(serial.exit_code, 0) << serial.out;
  const std::string out_file = (dir_ / "run.out").string();
  const pid_t pid = spawn_run({"--secret-file", secret_file()},
                              {"heat2d", "--tasks", "6", "--steps", steps, "--size", "96x96"},
                              out_file);
  ASSERT_GT(pid, 0);
  // Interrupted once the job has made progress (its root lists it with steps done).
  const std::string id = wait_for_progress();
  ASSERT_FALSE(id.empty()) << "no progress listed";
  ASSERT_EQ(::kill(pid, SIGINT), 0);
  EXPECT_EQ(exit_status_of(pid), 130);
  const std::string said = text_of(out_file);
  EXPECT_NE(said.find("detached; job " + id + " goes on"), std::string::npos) << said;
  expect_logged("its client left; the job goes on");

  const std::string secret = "--secret-file " + secret_file() + " ";
  const auto attached = driftctl(node() + secret + "attach " + id);
  EXPECT_EQ(attached.exit_code, 0) << attached.out;
  EXPECT_EQ(checksum_line(attached.out), checksum_line(serial.out)) << attached.out;
}

// A second Ctrl-C within two seconds asks on the terminal (here a pseudo-terminal the test
// types into) whether to cancel the job; "y" cancels it.
TEST_F(DetachedJobTest, ASecondCtrlCAsksOnTheTerminalAndYesCancelsTheJob) {
  const std::string alice = make_token("alice", "user");
  const int terminal = ::posix_openpt(O_RDWR | O_NOCTTY);
  ASSERT_GE(terminal, 0);
  ASSERT_EQ(::grantpt(terminal), 0);
  ASSERT_EQ(::unlockpt(terminal), 0);
  const std::string out_file = (dir_ / "run.out").string();
  pid_t pid = -1;
  std::string id;
  ASSERT_NO_FATAL_FAILURE(interrupt_twice(alice, ::ptsname(terminal), out_file, pid, id));
  ASSERT_TRUE(poll_until(5s, 20ms, [&] {
    return text_of(out_file).find("cancel job " + id + "? [y/N]") != std::string::npos;
  })) << text_of(out_file);
  ASSERT_EQ(::write(terminal, "y\n", 2), 2);
  EXPECT_EQ(exit_status_of(pid), 0) << text_of(out_file);
  ::close(terminal);
  EXPECT_NE(text_of(out_file).find("job " + id + ": cancelled by alice"), std::string::npos)
      << text_of(out_file);
  EXPECT_TRUE(wait_for_state(alice, id, "cancelled", 5s));
}

// Without a terminal to ask on, a second Ctrl-C only detaches: the job goes on.
TEST_F(DetachedJobTest, ASecondCtrlCWithNoTerminalLeavesTheJobRunning) {
  const std::string alice = make_token("alice", "user");
  const std::string out_file = (dir_ / "run.out").string();
  pid_t pid = -1;
  std::string id;
  ASSERT_NO_FATAL_FAILURE(interrupt_twice(alice, "/dev/null", out_file, pid, id));
  EXPECT_EQ(exit_status_of(pid), 130);
  EXPECT_NE(text_of(out_file).find("no terminal to ask on; job " + id + " goes on"),
            std::string::npos)
      << text_of(out_file);
  EXPECT_TRUE(wait_for_state(alice, id, "running", 5s));
  EXPECT_EQ(as(alice, "cancel " + id).exit_code, 0);
}

TEST_F(DetachedJobTest, OnlyItsOwnerOrAnAdminMayCancelAJob) {
  const std::string alice = make_token("alice", "user");
  const std::string bob = make_token("bob", "user");
  const std::string carol = make_token("carol", "admin");
  const std::string endless = "submit heat2d --tasks 6 --steps 100000000 --size 96x96";
  const auto first = as(alice, endless);
  ASSERT_EQ(first.exit_code, 0) << first.out;
  const std::string id = job_id_in(first.out);
  ASSERT_TRUE(wait_for_state(alice, id, "running", 10s));

  const auto refused = as(bob, "cancel " + id);
  EXPECT_EQ(refused.exit_code, 4) << refused.out;
  EXPECT_NE(refused.out.find("only its owner or an admin may cancel it"), std::string::npos)
      << refused.out;
  const auto cancelled = as(alice, "cancel " + id);
  EXPECT_EQ(cancelled.exit_code, 0) << cancelled.out;
  EXPECT_NE(cancelled.out.find("cancelled by alice"), std::string::npos) << cancelled.out;
  expect_logged("cancelled by alice");
  EXPECT_TRUE(wait_for_state(alice, id, "cancelled", 5s));
  const auto result = as(alice, "result " + id);
  EXPECT_EQ(result.exit_code, 1) << result.out;
  EXPECT_NE(result.out.find("was cancelled by alice"), std::string::npos) << result.out;

  // An admin may cancel anyone's.
  const auto second = as(alice, endless);
  ASSERT_EQ(second.exit_code, 0) << second.out;
  const std::string other = job_id_in(second.out);
  const auto by_admin = as(carol, "cancel " + other);
  EXPECT_EQ(by_admin.exit_code, 0) << by_admin.out;
  EXPECT_TRUE(wait_for_state(alice, other, "cancelled", 5s));
}

// Listing jobs asks every member at once, each within the timeout: members that are stopped
// (their kernels still accept connections, nobody answers) cost it once, not once each.
TEST_F(DetachedJobTest, StoppedMembersCostTheJobListOneTimeoutNotOneEach) {
  ASSERT_TRUE(cluster().kill(2, SIGSTOP).is_ok());
  ASSERT_TRUE(cluster().kill(3, SIGSTOP).is_ok());
  const auto began = std::chrono::steady_clock::now();
  auto jobs = ctl::cluster_jobs(connect_options(1), true, 1s);
  const auto took = std::chrono::steady_clock::now() - began;
  ASSERT_TRUE(cluster().kill(2, SIGCONT).is_ok());
  ASSERT_TRUE(cluster().kill(3, SIGCONT).is_ok());
  ASSERT_TRUE(jobs.is_ok()) << jobs.error();
  ASSERT_EQ(jobs->unreachable.size(), 2u);  // asked before they were declared dead
  EXPECT_NE(jobs->unreachable[0].find("node 2"), std::string::npos) << jobs->unreachable[0];
  EXPECT_NE(jobs->unreachable[1].find("node 3"), std::string::npos) << jobs->unreachable[1];
  EXPECT_LT(took, 1900ms);  // one after the other: 2 s
}

}  // namespace
}  // namespace drift::test
