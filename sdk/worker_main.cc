#include "sdk/worker_main.h"

#include <sys/prctl.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include "protocol/worker_codec.h"
#include "sdk/frame_link.h"
#include "sdk/worker_host.h"

namespace drift {

namespace {

// The daemon is trusted by its worker, but a frame this large would be a bug on its side.
constexpr std::uint32_t kMaxFrameBody = 256u << 20;

class Worker {
 public:
  Worker(const Application& app, int fd) : app_(app) {
    FrameLink::Socket socket(io_);
    std::error_code ec;
    socket.assign(asio::local::stream_protocol(), fd, ec);
    if (ec) {
      std::fprintf(stderr, "drift worker: file descriptor %d is not the daemon's socket: %s\n", fd,
                   ec.message().c_str());
      exit_code_ = 3;
      return;
    }
    link_ = std::make_shared<FrameLink>(std::move(socket), kWorkerProtocolVersion, kMaxFrameBody);
  }

  int run() {
    if (!link_) return exit_code_;
    link_->start({[this](Result<WorkerMessage>&& msg) { on_message(std::move(msg)); },
                  [this](const std::string& reason) { on_closed(reason); }});
    send(WorkerReady{app_.name(), static_cast<std::uint32_t>(::getpid())});
    io_.run();
    return exit_code_;
  }

 private:
  void send(const WorkerMessage& msg) { link_->send(make_frame(encode_worker(msg))); }

  void on_message(Result<WorkerMessage>&& msg) {
    if (!msg) return fail(msg.error());
    if (std::holds_alternative<WorkerStop>(*msg)) {
      stopping_ = true;
      link_->close("stopped");
      return;
    }
    if (!host_) {
      auto* setup = std::get_if<WorkerSetup>(&*msg);
      if (!setup) return fail("the daemon's first message is not a WorkerSetup");
      pool_ = std::make_unique<asio::thread_pool>(std::max<std::uint32_t>(1, setup->threads));
      host_ = std::make_unique<WorkerHost>(
          io_, *pool_, app_, *setup,
          [this](std::vector<Frame> frames) { link_->send_all(std::move(frames)); });
      return;
    }
    if (Status st = host_->handle(std::move(*msg)); !st) fail(st.message());
  }

  void fail(const std::string& why) {
    std::fprintf(stderr, "drift worker (%s): %s\n", app_.name().c_str(), why.c_str());
    exit_code_ = 3;
    link_->close(why);
  }

  void on_closed(const std::string& reason) {
    if (!stopping_ && exit_code_ == 0) {
      std::fprintf(stderr, "drift worker (%s): the daemon's socket closed (%s)\n",
                   app_.name().c_str(), reason.c_str());
      exit_code_ = 3;
    }
    io_.stop();
  }

  const Application& app_;
  asio::io_context io_;
  std::shared_ptr<FrameLink> link_;
  std::unique_ptr<asio::thread_pool> pool_;
  std::unique_ptr<WorkerHost> host_;
  bool stopping_ = false;
  int exit_code_ = 0;
};

// Not dumpable: no process without CAP_SYS_PTRACE may read or write this one's memory
// (process_vm_readv, /proc/PID/mem, ptrace), not even another job's worker under the same user
// (a daemon that may not switch users: worker.job_uids), and it leaves no core file with task
// state on the owner's disk. Sanitized builds stay dumpable: LeakSanitizer ptraces its own
// threads at exit.
void guard_memory() {
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#endif
}

}  // namespace

int run_worker(const Application& app, int fd) {
  guard_memory();
  Worker worker(app, fd);
  const int code = worker.run();
  std::fflush(stdout);
  std::fflush(stderr);
  // A handler may still run on the pool (the job ended under it): do not wait for it.
  ::_exit(code);
}

}  // namespace drift
