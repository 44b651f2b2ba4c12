#include "node/workers/worker_process.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <algorithm>

#include "node/machine/process_cpu.h"
#include "protocol/worker_codec.h"

namespace drift {

namespace {

constexpr std::size_t kTailLines = 20;
constexpr std::size_t kLineBytes = 1000;
constexpr double kLinesPerSecond = 50;
constexpr double kLineBurst = 200;
// A worker whose socket closed is given this long to exit before it is killed.
constexpr std::chrono::milliseconds kExitGrace{2000};
constexpr std::chrono::milliseconds kReapEvery{10};
// A worker not heard from yet that used this much CPU in a period is still starting.
constexpr double kStartingCpu = 0.02;

}  // namespace

Result<std::shared_ptr<WorkerProcess>> WorkerProcess::start(
    asio::io_context& io, const LaunchSpec& spec, const Containment& containment,
    std::uint32_t max_body, std::string label, Events events,
    std::chrono::milliseconds ready_within) {
  // The child starts on the starter thread; meanwhile frames wait in the socket for it.
  auto self = std::make_shared<std::weak_ptr<WorkerProcess>>();
  Result<Launched> launched =
      launch_worker(io, spec, containment, [&io, self, ready_within](Result<pid_t> pid) {
        if (auto w = self->lock()) return w->on_started(std::move(pid), ready_within);
        if (pid) reap_orphan(io, *pid);  // ended before it ran
      });
  if (!launched) return launched.status();
  std::shared_ptr<WorkerProcess> w(
      new WorkerProcess(io, *launched, containment, std::move(label), std::move(events)));
  *self = w;
  w->begin(launched->control_fd, max_body);
  return w;
}

// A worker whose WorkerProcess went while it started: killed with its group, and reaped once it
// has gone (polled, never waited for on the network thread).
namespace {
struct OrphanReaper : std::enable_shared_from_this<OrphanReaper> {
  OrphanReaper(asio::io_context& io, pid_t p) : timer(io), pid(p) {}
  void poll() {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) != 0) return;  // reaped (or no child of ours)
    timer.expires_after(kReapEvery);
    timer.async_wait([self = shared_from_this()](std::error_code ec) {
      if (!ec) self->poll();
    });
  }
  asio::steady_timer timer;
  pid_t pid;
};
}  // namespace

void WorkerProcess::reap_orphan(asio::io_context& io, pid_t pid) {
  if (::kill(-pid, SIGKILL) != 0) ::kill(pid, SIGKILL);
  std::make_shared<OrphanReaper>(io, pid)->poll();
}

void WorkerProcess::on_started(Result<pid_t> pid, std::chrono::milliseconds ready_within) {
  if (!pid) {
    spdlog::warn("{}: its worker did not start: {}", label_, pid.error());
    cgroup_.clear();  // removed with the preparation
    Ending ending;
    ending.how = "did not start: " + pid.error();
    ending.expected = expected_;  // stopped or killed before it ran
    return end(ending, "the worker did not start");
  }
  pid_ = *pid;
  // Killed or refused meanwhile: the reaping under way kills it now (kill_at_ has passed).
  if (reaping_) return;
  await_hello(ready_within, kStartPeriods - 1, process_cpu_seconds(pid_).value_or(0));
}

WorkerProcess::WorkerProcess(asio::io_context& io, Launched launched,
                             const Containment& containment, std::string label, Events events)
    : io_(io),
      pid_(launched.pid),
      cgroup_(std::move(launched.cgroup)),
      containment_(containment),
      label_(std::move(label)),
      events_(std::move(events)),
      stderr_(io, launched.stderr_fd),
      log_refilled_(std::chrono::steady_clock::now()),
      timer_(io),
      ready_timer_(io) {}

void WorkerProcess::begin(int control_fd, std::uint32_t max_body) {
  FrameLink::Socket socket(io_);
  std::error_code ec;
  socket.assign(asio::local::stream_protocol(), control_fd, ec);
  if (ec) ::close(control_fd);  // then the link is closed at once, and the worker ended
  link_ = std::make_shared<FrameLink>(std::move(socket), kWorkerProtocolVersion, max_body);
  std::weak_ptr<WorkerProcess> weak = shared_from_this();
  link_->start({[weak](Result<WorkerMessage>&& msg) {
                  auto self = weak.lock();  // alive while its owner handles the message
                  if (!self || self->reaped_) return;
                  if (!self->heard_) {
                    self->heard_ = true;
                    self->ready_timer_.cancel();
                  }
                  if (!msg) return self->refuse("a frame that does not decode: " + msg.error());
                  if (self->events_.message) self->events_.message(std::move(*msg));
                },
                [weak](const std::string& reason) {
                  if (auto self = weak.lock()) self->on_link_closed(reason);
                }});
  read_stderr();
}

void WorkerProcess::await_hello(std::chrono::milliseconds period, int periods_left,
                                double cpu_before) {
  std::weak_ptr<WorkerProcess> weak = shared_from_this();
  ready_timer_.expires_after(period);
  ready_timer_.async_wait([weak, period, periods_left, cpu_before](std::error_code ec) {
    auto self = weak.lock();
    if (ec || !self || self->heard_ || self->reaped_) return;
    const double cpu = process_cpu_seconds(self->pid_).value_or(cpu_before);
    if (cpu - cpu_before >= kStartingCpu && periods_left > 0) {
      return self->await_hello(period, periods_left - 1, cpu);
    }
    const auto waited = period * (kStartPeriods - periods_left);
    self->refuse("it said nothing within " + std::to_string(waited.count()) + " ms of starting" +
                 (periods_left > 0 ? " and used no CPU in the last " +
                                         std::to_string(period.count()) + " ms"
                                   : " though it kept using CPU") +
                 ": is it an application built with the drift SDK?");
  });
}

WorkerProcess::~WorkerProcess() {
  if (link_) link_->close("the worker ended");
  if (!reaped_ && pid_ > 0) {
    signal_group(SIGKILL);
    // Killed: gone in a moment; one stuck in the kernel is left to driftd's own exit.
    int status = 0;
    for (int i = 0; i < 100 && ::waitpid(pid_, &status, WNOHANG) == 0; ++i) ::usleep(10'000);
  }
  if (!cgroup_.empty()) {
    MemoryCgroups::kill_all(cgroup_);
    MemoryCgroups::remove(cgroup_);
  }
}

void WorkerProcess::send(Frame frame, bool bulk) {
  if (link_) link_->send(std::move(frame), bulk);
}

void WorkerProcess::send(const WorkerMessage& msg) { send(make_frame(encode_worker(msg))); }

void WorkerProcess::stop(std::chrono::milliseconds grace) {
  auto self = shared_from_this();  // a close below may drop the owner's last reference
  expected_ = true;
  send(WorkerStop{});
  kill_at_ = std::min(kill_at_, std::chrono::steady_clock::now() + grace);
  reap_soon();
}

void WorkerProcess::kill() {
  auto self = shared_from_this();
  expected_ = true;
  kill_at_ = std::chrono::steady_clock::now();  // a worker still starting goes once it runs
  signal_group(SIGKILL);
  if (link_) link_->close("killed");
  reap_soon();
}

void WorkerProcess::refuse(const std::string& reason) {
  auto self = shared_from_this();
  if (refusal_.empty()) refusal_ = reason;
  spdlog::warn("{} worker (pid {}): {}; it is killed", label_, pid_, reason);
  kill_at_ = std::chrono::steady_clock::now();
  signal_group(SIGKILL);
  if (link_) link_->close(reason);
  reap_soon();
}

// Its own process group (it called setsid): a launcher and what it started go too.
void WorkerProcess::signal_group(int sig) {
  if (pid_ <= 0 || reaped_) return;
  if (::kill(-pid_, sig) != 0) ::kill(pid_, sig);
}

void WorkerProcess::on_link_closed(const std::string& reason) {
  if (!expected_ && refusal_.empty()) {
    spdlog::debug("{} worker (pid {}): its socket closed ({})", label_, pid_, reason);
    // A frame the daemon refused (too large, bad header) is why it went: say so.
    if (reason.starts_with("bad frame")) refusal_ = "it sent a " + reason;
  }
  kill_at_ = std::min(kill_at_, std::chrono::steady_clock::now() + kExitGrace);
  reap_soon();
}

void WorkerProcess::read_stderr() {
  auto buf = std::make_shared<std::array<char, 4096>>();
  std::weak_ptr<WorkerProcess> weak = shared_from_this();
  stderr_.async_read_some(asio::buffer(*buf), [weak, buf](std::error_code ec, std::size_t n) {
    auto self = weak.lock();
    if (!self) return;
    if (ec) {
      if (!self->stderr_partial_.empty()) self->on_stderr_line(std::move(self->stderr_partial_));
      self->stderr_partial_.clear();
      self->reap_soon();
      return;
    }
    for (std::size_t i = 0; i < n; ++i) {
      const char c = (*buf)[i];
      if (c == '\n') {
        self->on_stderr_line(std::move(self->stderr_partial_));
        self->stderr_partial_.clear();
      } else if (self->stderr_partial_.size() < kLineBytes) {
        self->stderr_partial_ += c;
      }
    }
    self->read_stderr();
  });
}

void WorkerProcess::on_stderr_line(std::string line) {
  stderr_tail_.push_back(line);
  if (stderr_tail_.size() > kTailLines) stderr_tail_.pop_front();
  const auto now = std::chrono::steady_clock::now();
  log_tokens_ = std::min(kLineBurst, log_tokens_ + kLinesPerSecond *
                                                       std::chrono::duration<double>(
                                                           now - log_refilled_).count());
  log_refilled_ = now;
  if (log_tokens_ < 1) {
    ++lines_dropped_;
    return;
  }
  log_tokens_ -= 1;
  if (lines_dropped_ > 0) {
    spdlog::info("{} worker (pid {}): {} lines of its stderr not logged", label_, pid_,
                 lines_dropped_);
    lines_dropped_ = 0;
  }
  spdlog::info("{} worker (pid {}): {}", label_, pid_, line);
}

// Never from within the call that noticed the end (a send, a close): the owner may be in the
// middle of something `gone` would change. From a handler of its own.
void WorkerProcess::reap_soon() {
  if (reaping_ || reaped_) return;
  reaping_ = true;
  std::weak_ptr<WorkerProcess> weak = shared_from_this();
  asio::post(io_, [weak] {
    if (auto self = weak.lock()) self->try_reap();
  });
}

void WorkerProcess::try_reap() {
  auto self = shared_from_this();  // `gone` may drop the owner's last reference
  if (reaped_) return;
  int status = 0;
  // Still starting (pid -1): its pid comes with on_started; never waitpid(-1).
  const pid_t r = pid_ > 0 ? ::waitpid(pid_, &status, WNOHANG) : 0;
  if (r == 0) {
    if (std::chrono::steady_clock::now() >= kill_at_) signal_group(SIGKILL);
    std::weak_ptr<WorkerProcess> weak = shared_from_this();
    timer_.expires_after(kReapEvery);
    timer_.async_wait([weak](std::error_code ec) {
      if (auto self = weak.lock(); self && !ec) self->try_reap();
    });
    return;
  }
  Ending ending;
  ending.how = r < 0 ? "ended (it could not be waited for)" : describe_wait_status(status);
  ending.expected = expected_ && refusal_.empty();
  if (!refusal_.empty()) ending.how = "was killed by driftd: " + refusal_;
  if (!cgroup_.empty() && containment_.cgroups && containment_.cgroups->oom_killed(cgroup_)) {
    ending.out_of_memory = true;
    ending.how += " by the kernel's OOM killer: it passed its memory limit (worker.memory_limit, " +
                  std::to_string(containment_.memory_limit >> 20) + " MiB)";
  }
  for (const auto& line : stderr_tail_) ending.stderr_tail += line + "\n";
  if (!cgroup_.empty()) {
    // What it started and left behind (a daemon of its own, setsid) goes with it.
    MemoryCgroups::kill_all(cgroup_);
    MemoryCgroups::remove(cgroup_);
    cgroup_.clear();
  }
  end(ending, "the worker ended");
}

// Once: reaped (set before the close, whose handler would start a reaping), the socket and
// stderr closed, `gone` told.
void WorkerProcess::end(const Ending& ending, const std::string& reason) {
  reaped_ = true;
  ready_timer_.cancel();
  if (link_) link_->close(reason);
  std::error_code ignored;
  stderr_.close(ignored);
  if (events_.gone) {
    auto gone = std::move(events_.gone);
    events_ = Events{};
    gone(ending);
  }
}

}  // namespace drift
