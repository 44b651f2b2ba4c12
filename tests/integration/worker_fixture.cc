// What the worker integration tests share (worker_fixture.h).
#include "tests/integration/worker_fixture.h"

#include <unistd.h>

#include <fstream>

#include "ctl/app_executable.h"
#include "ctl/job_executables.h"
#include "protocol/codec.h"

namespace fs = std::filesystem;

namespace drift::test {

fs::path faulty() { return fs::path(DRIFT_BUILD_DIR) / "test-apps" / "faulty"; }
fs::path forger() { return fs::path(DRIFT_BUILD_DIR) / "test-apps" / "forger"; }

std::set<pid_t> workers_of(pid_t daemon) {
  std::set<pid_t> out;
  std::error_code ec;
  for (const auto& task : fs::directory_iterator("/proc/" + std::to_string(daemon) + "/task", ec)) {
    std::ifstream in(task.path() / "children");
    for (pid_t pid; in >> pid;) out.insert(pid);
  }
  return out;
}

std::string cpu_cgroup_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/cgroup");
  for (std::string line; std::getline(in, line);) {
    const auto a = line.find(':'), b = line.find(':', a + 1);
    if (b == std::string::npos) continue;
    const std::string controllers = "," + line.substr(a + 1, b - a - 1) + ",";
    if (controllers.find(",cpu,") != std::string::npos || line.starts_with("0::")) {
      return line.substr(b + 1);
    }
  }
  return "";
}

void WorkerTest::start(int nodes, int slot, std::vector<std::string> args,
                       std::map<int, std::vector<std::string>> node_args) {
  ctl::LocalClusterOptions options;
  options.driftd = bin_dir() / "driftd";
  options.stop_with_parent = true;
  options.extra_args = std::move(args);
  options.node_args = std::move(node_args);
  options.launchers = launchers_;
  cluster_ = std::make_unique<ctl::LocalCluster>(dir_, options);
  ASSERT_NO_FATAL_FAILURE(start_cluster(nodes, slot));
  wait_for_load_reports(1);
}

WorkerTest::Run WorkerTest::run_own(const fs::path& path, JobSpec spec, std::uint64_t after,
                                    std::function<void()> during) {
  Run run;
  auto exes = ctl::job_executables(path, {});
  if (!exes) return run.end = exes.status(), run;
  auto connection = connect(1);
  if (!connection) return run.end = Status::error("no connection"), run;
  bool done_during = !during;
  run.end = run_own_executables(
      *connection, *exes, spec,
      [&](const JobProgress& p) {
        if (!done_during && p.step >= after) {
          done_during = true;
          during();
        }
      },
      ctl::Clock::now() + std::chrono::seconds(90),
      [&](const JobNotice& n) { run.notices.push_back(n); });
  return run;
}

std::string WorkerTest::own_serial(const fs::path& path, JobSpec spec) {
  AppQuery q;
  q.kind = AppQueryKind::kSerial;
  spec.runtime.clear();
  q.spec = spec;
  auto a = ctl::ask_executable(path, q);
  return a && a->ok ? a->checksum : "no serial reference";
}

std::string WorkerTest::shared_file(const std::string& name) {
  if (shared_dir_.empty()) {
    std::string pattern = "/tmp/drift-it-shared-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) return "/nonexistent/" + name;
    shared_dir_ = pattern;
    fs::permissions(shared_dir_, fs::perms::all);
  }
  return (shared_dir_ / name).string();
}

void WorkerTest::TearDown() {
  ClusterTest::TearDown();
  std::error_code ec;
  if (!shared_dir_.empty()) fs::remove_all(shared_dir_, ec);
}

std::string WorkerTest::notices_text(const Run& run) {
  std::string text;
  for (const auto& n : run.notices) text += n.text + "\n";
  return text;
}

}  // namespace drift::test
