#include "node/workers/app_query_client.h"

#include <signal.h>
#include <unistd.h>
#include <sys/wait.h>

#include <array>
#include <deque>

namespace drift {

namespace {

constexpr std::size_t kMaxAnswer = 16u << 20;
constexpr std::size_t kStderrTail = 2000;

class Query : public std::enable_shared_from_this<Query> {
 public:
  Query(asio::io_context& io, Launched launched, std::string executable, AppAnswerHandler done)
      : in_(io, launched.control_fd),
        out_(io, launched.output_fd),
        err_(io, launched.stderr_fd),
        timer_(io),
        pid_(launched.pid),
        cgroup_(launched.cgroup),
        executable_(std::move(executable)),
        done_(std::move(done)) {}

  void start(std::vector<std::uint8_t> query, std::chrono::milliseconds timeout) {
    query_ = std::move(query);
    auto self = shared_from_this();
    asio::async_write(in_, asio::buffer(query_), [self](std::error_code, std::size_t) {
      std::error_code ignored;
      self->in_.close(ignored);  // EOF: the query is whole (a program that stopped reading
                                 // is judged by its answer)
    });
    read(out_, answer_, kMaxAnswer, out_open_);
    read(err_, stderr_, kStderrTail * 8, err_open_);
    deadline_ = std::chrono::steady_clock::now() + timeout;
    poll();
  }

 private:
  void read(asio::posix::stream_descriptor& from, std::vector<std::uint8_t>& into,
            std::size_t limit, bool& open) {
    auto self = shared_from_this();
    from.async_read_some(asio::buffer(buf(from)), [self, &from, &into, limit, &open](
                                                      std::error_code ec, std::size_t n) {
      if (ec) {
        open = false;
        return;
      }
      const auto& b = self->buf(from);
      if (into.size() + n > limit) {
        if (&into == &self->answer_) {
          self->too_long_ = true;
          self->kill_it();
          open = false;
          return;
        }
        into.erase(into.begin(), into.begin() + static_cast<std::ptrdiff_t>(std::min(into.size(), n)));
      }
      into.insert(into.end(), b.begin(), b.begin() + static_cast<std::ptrdiff_t>(n));
      self->read(from, into, limit, open);
    });
  }

  std::array<std::uint8_t, 65536>& buf(const asio::posix::stream_descriptor& from) {
    return &from == &out_ ? out_buf_ : err_buf_;
  }

  // Every 5 ms: has it ended (and its pipes drained)? Too late: killed.
  void poll() {
    if (!reaped_) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        reaped_ = true;
        status_ = status;
      } else if (std::chrono::steady_clock::now() > deadline_ && !timed_out_) {
        timed_out_ = true;
        kill_it();
      }
    }
    if (reaped_ && !out_open_ && !err_open_) return finish();
    if (reaped_ && std::chrono::steady_clock::now() > deadline_ + std::chrono::seconds(1)) {
      ::kill(-pid_, SIGKILL);  // a process it started holds its pipes: its group goes
      return finish();
    }
    auto self = shared_from_this();
    timer_.expires_after(std::chrono::milliseconds(5));
    timer_.async_wait([self](std::error_code) { self->poll(); });
  }

  // Its process group (it called setsid): what it started goes too. Never once it was reaped
  // (the pid may be another process's by then).
  void kill_it() {
    if (reaped_) return;
    if (::kill(-pid_, SIGKILL) != 0) ::kill(pid_, SIGKILL);
  }

  void finish() {
    if (!cgroup_.empty()) {
      MemoryCgroups::kill_all(cgroup_);
      MemoryCgroups::remove(cgroup_);
    }
    std::error_code ignored;
    out_.close(ignored);
    err_.close(ignored);
    in_.close(ignored);
    std::string tail(stderr_.begin(), stderr_.end());
    if (tail.size() > kStderrTail) tail = tail.substr(tail.size() - kStderrTail);
    while (!tail.empty() && tail.back() == '\n') tail.pop_back();
    const std::string context = tail.empty() ? "" : "; its stderr ends: " + tail;
    AppAnswerHandler done = std::move(done_);
    if (timed_out_) {
      return done(Status::error(executable_ + " --drift-query did not answer in time" + context));
    }
    if (too_long_) {
      return done(Status::error(executable_ + " --drift-query answered more than " +
                                std::to_string(kMaxAnswer) + " bytes"));
    }
    AppAnswer a;
    Status st = decode_portable(answer_, a);
    if (!st || a.version < kAppQueryOldestVersion || a.version > kAppQueryVersion) {
      const std::string how = describe_wait_status(status_);
      return done(Status::error(
          executable_ + " --drift-query " + how + (answer_.empty() ? " without an answer" :
                                                   !st ? " with an answer that does not decode (" +
                                                             st.message() + ")"
                                                       : " with an answer of another SDK version") +
          "; is it a drift application?" + context));
    }
    done(std::move(a));
  }

  asio::posix::stream_descriptor in_, out_, err_;
  asio::steady_timer timer_;
  pid_t pid_;
  std::string cgroup_;
  std::string executable_;
  AppAnswerHandler done_;
  std::vector<std::uint8_t> query_, answer_, stderr_;
  std::array<std::uint8_t, 65536> out_buf_{}, err_buf_{};
  bool out_open_ = true, err_open_ = true;
  bool reaped_ = false, timed_out_ = false, too_long_ = false;
  int status_ = 0;
  std::chrono::steady_clock::time_point deadline_;
};

}  // namespace

void ask_app(asio::io_context& io, const std::string& executable,
             const std::vector<std::string>& launcher, const Containment& containment,
             const AppQuery& query, std::chrono::milliseconds timeout, AppAnswerHandler done,
             const std::string& cgroup_name) {
  LaunchSpec spec;
  spec.executable = executable;
  spec.launcher = launcher;
  spec.args = {"--drift-query"};
  spec.cgroup_name = cgroup_name;
  // The query runs once its child does (child_starter.h); its time limit counts from then.
  auto fds = std::make_shared<Launched>();
  auto ready = [&io, fds, executable, done, bytes = encode_portable(query),
                timeout](Result<pid_t> pid) mutable {
    if (!pid) {
      for (int fd : {fds->control_fd, fds->output_fd, fds->stderr_fd}) {
        if (fd >= 0) ::close(fd);
      }
      return done(pid.status());
    }
    fds->pid = *pid;
    auto q = std::make_shared<Query>(io, *fds, executable, std::move(done));
    q->start(std::move(bytes), timeout);
  };
  Result<Launched> launched = launch_query(io, spec, containment, std::move(ready));
  if (!launched) return done(launched.status());
  *fds = *launched;  // before `ready` runs: it is posted to `io`, never called from here
}

}  // namespace drift
