#include "ctl/interrupt_watch.h"

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "ctl/task_id_text.h"

namespace drift::ctl {

namespace {

sigset_t interrupt_set() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  return set;
}

// Waits up to `timeout` for SIGINT; true if it came.
bool wait_for_interrupt(std::chrono::milliseconds timeout) {
  const sigset_t set = interrupt_set();
  timespec ts{static_cast<time_t>(timeout.count() / 1000),
              static_cast<long>(timeout.count() % 1000) * 1'000'000};
  return sigtimedwait(&set, nullptr, &ts) == SIGINT;
}

// One line typed on the terminal (stdin), without its newline; "" at its end.
std::string read_answer() {
  std::string line;
  char c = 0;
  while (::read(STDIN_FILENO, &c, 1) == 1 && c != '\n') line += c;
  return line;
}

}  // namespace

InterruptWatch::InterruptWatch(Cancel cancel) : cancel_(std::move(cancel)) {
  const sigset_t set = interrupt_set();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  thread_ = std::thread([this] { watch(); });
}

InterruptWatch::~InterruptWatch() {
  stop_ = true;
  thread_.join();
  const sigset_t set = interrupt_set();
  pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

void InterruptWatch::watch() {
  while (!stop_) {
    if (!wait_for_interrupt(std::chrono::milliseconds(100))) continue;
    interrupted_ = true;
    on_interrupt(job_);
  }
}

void InterruptWatch::on_interrupt(std::uint64_t job) {
  if (job == 0) {  // nothing submitted yet: nothing goes on without us
    std::fputs("\n", stderr);
    std::_Exit(130);
  }
  const std::string id = format_job_id(job);
  std::fprintf(stderr,
               "\ndriftctl: detached; job %s goes on (driftctl attach %s to follow it, driftctl "
               "cancel %s to stop it; Ctrl-C again within %lld s to be asked whether to cancel "
               "it now)\n",
               id.c_str(), id.c_str(), id.c_str(), static_cast<long long>(kSecondChance.count()));
  std::fflush(stderr);
  if (!wait_for_interrupt(kSecondChance)) std::_Exit(130);
  const std::lock_guard hold(output_);  // the job's end is not printed meanwhile
  if (ended_) return;                   // ... or was: nothing left to cancel
  if (::isatty(STDIN_FILENO) != 1) {
    std::fprintf(stderr, "driftctl: no terminal to ask on; job %s goes on\n", id.c_str());
    std::_Exit(130);
  }
  std::fprintf(stderr, "driftctl: cancel job %s? [y/N] ", id.c_str());
  std::fflush(stderr);
  const std::string answer = read_answer();
  if (answer != "y" && answer != "Y" && answer != "yes") {
    std::fprintf(stderr, "driftctl: not cancelled; job %s goes on\n", id.c_str());
    std::_Exit(130);
  }
  const int status = cancel_(job);
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(status);
}

}  // namespace drift::ctl
