// One running worker process, seen from its daemon (docs/architecture.md §11.2): the
// framed socket to it (every frame decoded with the bounds of a peer's), its stderr copied line
// by line into the daemon's log (rate-limited, the last lines kept for error messages), and its
// end: the socket or stderr closing, a stop that ran out of grace, or a kill, after which the
// process is reaped and `gone` says how it ended — "was killed by signal 9 (Killed)", with "by
// the kernel's OOM killer: it passed its memory limit" when its memory cgroup says so. Network
// thread only.
#pragma once

#include <asio.hpp>
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>

#include "node/workers/worker_launch.h"
#include "protocol/out_frame.h"
#include "protocol/worker_messages.h"
#include "sdk/frame_link.h"

namespace drift {

class WorkerProcess : public std::enable_shared_from_this<WorkerProcess> {
 public:
  struct Ending {
    std::string how;          // "exited with status 3", "was killed by signal 9 (Killed)", ...
    bool expected = false;    // after stop() or kill()
    bool out_of_memory = false;
    std::string stderr_tail;  // its last lines, "\n"-separated
  };
  static constexpr int kStartPeriods = 10;  // of `ready_within`, for a worker using CPU
  struct Events {
    std::function<void(WorkerMessage&&)> message;  // one frame from the worker, decoded
    std::function<void(const Ending&)> gone;       // once, after the process was reaped
  };

  // Launches the executable (the child starts on a thread of its own: the WorkerProcess is there
  // at once, frames sent to it wait for it, and a child that cannot start ends it with `gone`,
  // "did not start: ..."); `label` names it in the log ("job 0x1e01d0001"). A worker that
  // sends nothing within `ready_within` (it is no drift application, or hangs) is ended — unless
  // it used CPU in that time: then it is starting slowly (a node under a small quota, a big
  // binary, a sanitizer's set-up) and gets another `ready_within`, up to kStartPeriods in all.
  static Result<std::shared_ptr<WorkerProcess>> start(
      asio::io_context& io, const LaunchSpec& spec, const Containment& containment,
      std::uint32_t max_body, std::string label, Events events,
      std::chrono::milliseconds ready_within = std::chrono::seconds(30));
  ~WorkerProcess();

  // Replace the handlers given at start (e.g. once the owner knows which worker this is).
  void on_message(std::function<void(WorkerMessage&&)> handler) { events_.message = std::move(handler); }
  void on_gone(std::function<void(const Ending&)> handler) { events_.gone = std::move(handler); }

  void send(Frame frame, bool bulk = false);
  void send(const WorkerMessage& msg);
  // Asks it to exit; killed if it has not after `grace`.
  void stop(std::chrono::milliseconds grace);
  // Kills it (and anything it started) at once.
  void kill();
  // Ends it for breaking the protocol: the reason is logged and the ending is not expected.
  void refuse(const std::string& reason);

  pid_t pid() const { return pid_; }  // -1 while it is starting
  const std::string& label() const { return label_; }
  bool ended() const { return reaped_; }
  std::size_t queued_bytes() const { return link_ ? link_->queued_bytes() : 0; }

 private:
  WorkerProcess(asio::io_context& io, Launched launched, const Containment& containment,
                std::string label, Events events);
  void begin(int control_fd, std::uint32_t max_body);
  // The child runs (or did not start): its pid, and the wait for its first frame begins.
  void on_started(Result<pid_t> pid, std::chrono::milliseconds ready_within);
  static void reap_orphan(asio::io_context& io, pid_t pid);
  void await_hello(std::chrono::milliseconds period, int periods_left, double cpu_before);
  void read_stderr();
  void on_stderr_line(std::string line);
  void on_link_closed(const std::string& reason);
  void reap_soon();
  void try_reap();
  void end(const Ending& ending, const std::string& reason);
  void signal_group(int sig);

  asio::io_context& io_;
  pid_t pid_;
  std::string cgroup_;
  const Containment& containment_;
  std::string label_;
  Events events_;
  std::shared_ptr<FrameLink> link_;
  asio::posix::stream_descriptor stderr_;
  std::string stderr_partial_;
  std::deque<std::string> stderr_tail_;
  double log_tokens_ = 200;  // lines it may still log now (refilled at 50 per second)
  std::chrono::steady_clock::time_point log_refilled_;
  std::uint64_t lines_dropped_ = 0;
  asio::steady_timer timer_;
  asio::steady_timer ready_timer_;  // until its first frame
  bool heard_ = false;
  std::chrono::steady_clock::time_point kill_at_ = std::chrono::steady_clock::time_point::max();
  bool expected_ = false;
  bool reaping_ = false;
  bool reaped_ = false;
  std::string refusal_;
};

}  // namespace drift
