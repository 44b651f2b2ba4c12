// What Ctrl-C does while driftctl follows a job (`run`, `attach`): it only detaches — the job
// goes on at its root, and driftctl says how to attach again or cancel it. A second Ctrl-C
// within kSecondChance asks, on the terminal, whether to cancel the job instead ("y" cancels;
// anything else, or no terminal to ask on, detaches). SIGINT is taken by a thread of its own
// (sigtimedwait), so the question and the cancel happen outside a signal handler while the
// main thread goes on reading the job's messages.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

namespace drift::ctl {

class InterruptWatch {
 public:
  static constexpr std::chrono::seconds kSecondChance{2};
  // Cancels the job and returns driftctl's exit status (it prints what happened).
  using Cancel = std::function<int(std::uint64_t job)>;

  // Blocks SIGINT in this thread (and in those it starts later) and watches for it. Until the
  // job's id is known (set_job), Ctrl-C ends driftctl at once, as if unwatched.
  explicit InterruptWatch(Cancel cancel);
  ~InterruptWatch();
  InterruptWatch(const InterruptWatch&) = delete;
  InterruptWatch& operator=(const InterruptWatch&) = delete;

  void set_job(std::uint64_t job) { job_ = job; }
  // True once Ctrl-C was pressed: the caller stops drawing its progress bar.
  bool interrupted() const { return interrupted_; }
  // Held while the caller prints the job's end: the question and the cancel after a second
  // Ctrl-C hold it too, so their lines and the job's end never interleave on the terminal (and
  // once the cancel began, driftctl exits with its answer, the caller's never printed).
  [[nodiscard]] std::unique_lock<std::mutex> hold_output() {
    std::unique_lock lock(output_);
    ended_ = true;  // a second Ctrl-C from now on asks nothing: the job's end is being printed
    return lock;
  }

 private:
  void watch();
  // Never returns (driftctl exits), unless the job's end was printed before a second Ctrl-C.
  void on_interrupt(std::uint64_t job);

  Cancel cancel_;
  std::mutex output_;
  bool ended_ = false;  // under output_
  std::atomic<std::uint64_t> job_{0};
  std::atomic<bool> interrupted_{false};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace drift::ctl
