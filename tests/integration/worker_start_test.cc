// A worker that has not said hello yet (docs/architecture.md §11.2): one that hangs (no CPU) is
// ended after `ready_within`; one that is still busy starting — here a shell that computes and
// never speaks, standing in for a worker set up slowly under a small CPU quota — is given more
// periods while it uses CPU, and ended after the last, the error saying which case it was.
#include <gtest/gtest.h>

#include <asio.hpp>

#include <chrono>
#include <optional>
#include <string>

#include "node/workers/worker_process.h"

namespace drift {
namespace {

using namespace std::chrono_literals;

class WorkerStartTest : public ::testing::Test {
 protected:
  // Runs `script` in place of an application until the daemon's side ends it.
  WorkerProcess::Ending run(const std::string& script, std::chrono::milliseconds ready_within) {
    containment_.nice = 0;  // a busy machine must not starve the spinner below (SCHED_IDLE)
    containment_.sched_idle = false;
    LaunchSpec spec;
    spec.executable = "/bin/true";  // what the launcher is handed; the script ignores it
    spec.launcher = {"/bin/sh", "-c", script, "sh"};
    std::optional<WorkerProcess::Ending> ending;
    auto worker = WorkerProcess::start(io_, spec, containment_, 1 << 20, "test", {},
                                       ready_within);
    EXPECT_TRUE(worker) << worker.error();
    if (!worker) return {};
    (*worker)->on_gone([&](const WorkerProcess::Ending& e) { ending = e; });
    while (!ending && io_.run_one_for(60s) > 0) {
    }
    EXPECT_TRUE(ending) << "the worker was never ended";
    return ending.value_or(WorkerProcess::Ending{});
  }

  asio::io_context io_;
  Containment containment_;
};

TEST_F(WorkerStartTest, AWorkerThatHangsSilentIsEndedAfterOnePeriod) {
  const auto ending = run("exec sleep 600", 300ms);
  EXPECT_FALSE(ending.expected);
  EXPECT_NE(ending.how.find("said nothing within 300 ms of starting and used no CPU in the last "
                            "300 ms"),
            std::string::npos)
      << ending.how;
}

TEST_F(WorkerStartTest, AWorkerStillUsingCpuGetsMorePeriodsThenIsEnded) {
  const auto ending = run("while :; do :; done", 300ms);
  EXPECT_FALSE(ending.expected);
  EXPECT_NE(ending.how.find("said nothing within 3000 ms of starting though it kept using CPU"),
            std::string::npos)
      << ending.how;
}

}  // namespace
}  // namespace drift
