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

 private:
  void watch();
  void on_interrupt(std::uint64_t job);  // never returns: driftctl exits

  Cancel cancel_;
  std::atomic<std::uint64_t> job_{0};
  std::atomic<bool> interrupted_{false};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace drift::ctl
