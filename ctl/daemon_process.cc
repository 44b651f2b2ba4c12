#include "ctl/daemon_process.h"

#include <fcntl.h>
#include <linux/close_range.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <thread>

namespace drift::ctl {

namespace {

constexpr auto kChildPollInterval = std::chrono::milliseconds(20);

struct ChildFd {
  int fd = -1;
  ~ChildFd() {
    if (fd >= 0) ::close(fd);
  }
};

// Only async-signal-safe calls between fork and exec.
[[noreturn]] void exec_child(char* const argv[], int log_fd, int null_fd, int error_fd,
                             bool stop_with_parent, pid_t parent) {
  if (stop_with_parent) {
    ::prctl(PR_SET_PDEATHSIG, SIGINT);
    if (::getppid() != parent) ::_exit(127);
  }
  ::setsid();
  ::dup2(null_fd, STDIN_FILENO);
  ::dup2(log_fd, STDOUT_FILENO);
  ::dup2(log_fd, STDERR_FILENO);
  ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);  // error_fd is close-on-exec already
  ::execv(argv[0], argv);
  const int err = errno;
  [[maybe_unused]] auto n = ::write(error_fd, &err, sizeof err);
  ::_exit(127);
}

Status open_child_files(const SpawnSpec& spec, ChildFd& log, ChildFd& null, ChildFd& pipe_read,
                        ChildFd& pipe_write) {
  log.fd = ::open(spec.log_file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (log.fd < 0) {
    return Status::error("cannot open log file '" + spec.log_file.string() +
                         "': " + std::strerror(errno));
  }
  null.fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  int fds[2];
  if (null.fd < 0 || ::pipe2(fds, O_CLOEXEC) != 0) {
    return Status::error(std::string("cannot prepare to start a process: ") + std::strerror(errno));
  }
  pipe_read.fd = fds[0];
  pipe_write.fd = fds[1];
  return Status::ok();
}

// Zero bytes on the pipe: exec succeeded (the pipe closed on exec). Otherwise the child's errno.
int exec_error(int pipe_read) {
  int err = 0;
  ssize_t n;
  do {
    n = ::read(pipe_read, &err, sizeof err);
  } while (n < 0 && errno == EINTR);
  return n == static_cast<ssize_t>(sizeof err) ? err : 0;
}

}  // namespace

Result<pid_t> spawn_detached(const SpawnSpec& spec) {
  ChildFd log, null, pipe_read, pipe_write;
  if (Status s = open_child_files(spec, log, null, pipe_read, pipe_write); !s) return s;
  std::vector<std::string> strings{spec.program.string()};
  strings.insert(strings.end(), spec.args.begin(), spec.args.end());
  std::vector<char*> argv;
  for (auto& s : strings) argv.push_back(s.data());
  argv.push_back(nullptr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) return Status::error(std::string("fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    exec_child(argv.data(), log.fd, null.fd, pipe_write.fd, spec.stop_with_parent, parent);
  }
  ::close(pipe_write.fd);
  pipe_write.fd = -1;
  if (const int err = exec_error(pipe_read.fd)) {
    ::waitpid(pid, nullptr, 0);
    return Status::error("cannot run '" + spec.program.string() + "': " + std::strerror(err));
  }
  return pid;
}

bool process_alive(pid_t pid) {
  if (pid <= 0) return false;  // waitpid and kill would act on groups of processes
  int status = 0;
  const pid_t reaped = ::waitpid(pid, &status, WNOHANG);
  if (reaped == pid) return false;  // our child, exited just now
  if (::kill(pid, 0) != 0 && errno == ESRCH) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  const auto close = line.rfind(')');
  return close == std::string::npos || close + 2 >= line.size() || line[close + 2] != 'Z';
}

// A program run through qemu-user (a daemon of another architecture) has the emulator as argv[0]
// and the program among the later arguments.
bool process_runs(pid_t pid, const std::string& name) {
  if (pid <= 0) return false;
  std::ifstream cmdline("/proc/" + std::to_string(pid) + "/cmdline");
  std::vector<std::string> argv;
  for (std::string arg; std::getline(cmdline, arg, '\0');) argv.push_back(arg);
  const auto names = [&](const std::string& arg) {
    return std::filesystem::path(arg).filename().string().find(name) != std::string::npos;
  };
  if (argv.empty()) {
    // A process in the middle of its exec has no arguments yet (the kernel sets them up after
    // it closed the descriptors spawn_detached waits on) but already its executable.
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/" + std::to_string(pid) + "/exe", ec);
    return !ec && names(exe.string());
  }
  if (names(argv.front())) return true;
  if (std::filesystem::path(argv.front()).filename().string().rfind("qemu-", 0) != 0) return false;
  return std::any_of(argv.begin() + 1, argv.end(), names);
}

StopOutcome stop_process(pid_t pid, std::chrono::milliseconds grace) {
  if (pid <= 0 || !process_alive(pid)) return StopOutcome::kNotRunning;
  ::kill(pid, SIGINT);  // driftd: stop now (SIGTERM would first move its tasks away)
  const auto deadline = std::chrono::steady_clock::now() + grace;
  while (process_alive(pid)) {
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(pid, SIGKILL);
      // Bounded: a process stuck in the kernel (state D) may take a while to die.
      const auto kill_deadline = std::chrono::steady_clock::now() + grace;
      while (process_alive(pid) && std::chrono::steady_clock::now() < kill_deadline) {
        std::this_thread::sleep_for(kChildPollInterval);
      }
      return StopOutcome::kKilled;
    }
    std::this_thread::sleep_for(kChildPollInterval);
  }
  return StopOutcome::kTerminated;
}

}  // namespace drift::ctl
