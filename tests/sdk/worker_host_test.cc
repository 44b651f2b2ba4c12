// The worker's task host (sdk/worker_host.h) driven through its protocol without a daemon: a
// move's state is written and loaded on the state thread — or, when small, on the I/O thread — so
// neither waits for a pool whose only thread runs another task's handler, and a task asked for
// something while its state is being written does it only after the capture; the reports of a
// burst of handlers reach the daemon in one write; a message never overtakes its task's start().
#include "sdk/worker_host.h"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>
#include <thread>

#include "protocol/worker_codec.h"

namespace drift {
namespace {

using namespace std::chrono_literals;

// A latch a test opens from its own thread; handlers and saves block on it.
class Gate {
 public:
  void open() {
    std::lock_guard lock(mutex_);
    open_ = true;
    cv_.notify_all();
  }
  void wait() {
    std::unique_lock lock(mutex_);
    cv_.wait(lock, [this] { return open_; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool open_ = false;
};

// What the test application's tasks share with the test.
struct Probe {
  Gate start_gate;          // task 0's start() waits here: the pool's only thread is held
  Gate save_gate;           // a save waits here while `hold_saves` is set
  std::atomic<bool> hold_saves{false};
  std::atomic<bool> saving{false};  // a save is under way (and waiting for save_gate)
  std::atomic<int> received{0};     // messages task 1 took
  std::atomic<bool> received_while_saving{false};
  std::atomic<bool> received_before_start{false};
  std::mutex threads_mutex;  // the threads the last load and the last save ran on
  std::thread::id load_thread;
  std::thread::id save_thread;
};

class GateTask : public Task {
 public:
  GateTask(std::uint32_t index, Probe& probe) : index_(index), probe_(probe) {}
  void start(Context&) override {
    if (index_ == 0) probe_.start_gate.wait();
    started_ = true;
  }
  void receive(Context&, Message&&) override {
    if (probe_.saving) probe_.received_while_saving = true;
    if (!started_) probe_.received_before_start = true;
    ++probe_.received;
    ++value_;
  }
  void reduced(Context&, std::uint64_t, const std::vector<double>&) override {}
  double load() const override { return 1; }
  void save_state(PortableOutputArchive& ar) const override {
    if (probe_.hold_saves) {
      probe_.saving = true;
      probe_.save_gate.wait();
      probe_.saving = false;
    }
    {
      std::lock_guard lock(probe_.threads_mutex);
      probe_.save_thread = std::this_thread::get_id();
    }
    ar(value_, padding_);
  }
  void load_state(BoundedInputArchive& ar) override {
    {
      std::lock_guard lock(probe_.threads_mutex);
      probe_.load_thread = std::this_thread::get_id();
    }
    ar(value_, padding_);
  }

 private:
  std::uint32_t index_;
  Probe& probe_;
  std::uint64_t value_ = 7;
  std::vector<std::uint8_t> padding_;  // makes a state as large as a test wants
  bool started_ = false;               // not state: start() runs again after a move
};

// The state of a GateTask holding `value` and `padding` bytes, with fresh channels.
std::vector<std::uint8_t> gate_state(std::uint64_t value, std::size_t padding) {
  PortableOutputArchive ar;
  ar(value, std::vector<std::uint8_t>(padding, 0x5a));
  ChannelReceiver receiver;
  ChannelSender sender;
  ar(receiver, sender);
  return std::move(ar).take_bytes();
}

class GateApp : public Application {
 public:
  explicit GateApp(Probe& probe) : probe_(probe) {}
  std::string name() const override { return "gate"; }
  std::vector<std::string> option_help() const override { return {}; }
  Status validate(JobSpec&) const override { return Status::ok(); }
  std::unique_ptr<Task> create_task(const JobSpec&, std::uint32_t index) const override {
    return std::make_unique<GateTask>(index, probe_);
  }
  std::vector<ReduceOp> reduction_ops() const override { return {}; }
  Result<JobOutcome> combine(const JobSpec&,
                             const std::vector<std::vector<std::uint8_t>>&) const override {
    return Status::error("not used");
  }
  Result<JobOutcome> run_serial(const JobSpec&) const override { return Status::error("not used"); }

 private:
  Probe& probe_;
};

constexpr std::uint64_t kJob = 0x42;

// A worker host on an I/O thread of its own with a one-thread pool; the frames it sends are
// decoded and queued for the test.
class WorkerHostTest : public ::testing::Test {
 protected:
  void SetUp() override {
    WorkerSetup setup;
    setup.job = kJob;
    setup.root = 1;
    setup.node = 1;
    setup.spec.app = "gate";
    setup.spec.tasks = 3;
    setup.spec.steps = 10;
    setup.threads = 1;
    setup.inline_us = 50;  // the daemon's default: short work may run on the I/O thread
    setup.max_payload = 1 << 20;
    host_ = std::make_unique<WorkerHost>(io_, pool_, app_, setup,
                                         [this](std::vector<Frame> frames) { sent(frames); });
    io_thread_ = std::thread([this] { io_.run(); });
  }
  void TearDown() override {
    probe_.start_gate.open();
    probe_.save_gate.open();
    pool_.join();  // the handlers still queued run first: they use the host
    on_io([this] { host_.reset(); });
    guard_.reset();
    io_thread_.join();
  }

  // Runs `fn` on the I/O thread and waits for it.
  void on_io(std::function<void()> fn) {
    std::promise<void> done;
    asio::post(io_, [&] {
      fn();
      done.set_value();
    });
    done.get_future().wait();
  }
  void handle(WorkerMessage msg) {
    on_io([&] { ASSERT_TRUE(host_->handle(std::move(msg)).is_ok()); });
  }

  // Task `index` arrives with a GateTask state of `padding` extra bytes: its WorkerInstalled.
  std::optional<WorkerInstalled> install(std::uint32_t index, std::size_t padding, bool start) {
    std::vector<std::uint8_t> state = gate_state(3, padding);
    handle(WorkerInstall{index, state.size(), start});
    handle(WorkerStateBytes{StateBytesKind::kInstall, index, 0, 0, std::move(state)});
    return next<WorkerInstalled>();
  }
  // Task `index` frozen and captured: its WorkerCaptureDone.
  std::optional<WorkerCaptureDone> freeze_and_capture(std::uint32_t index) {
    handle(WorkerTaskControl{index, TaskControlAction::kFreeze});
    handle(WorkerCapture{index, 1, 4096});
    return next<WorkerCaptureDone>();
  }
  std::thread::id load_thread() {
    std::lock_guard lock(probe_.threads_mutex);
    return probe_.load_thread;
  }
  std::thread::id save_thread() {
    std::lock_guard lock(probe_.threads_mutex);
    return probe_.save_thread;
  }

  // The next message the host sent of type M, waiting up to `timeout` (others are skipped).
  template <class M>
  std::optional<M> next(std::chrono::milliseconds timeout = 5000ms) {
    std::unique_lock lock(mutex_);
    const auto until = std::chrono::steady_clock::now() + timeout;
    while (true) {
      while (!out_.empty()) {
        WorkerMessage m = std::move(out_.front());
        out_.pop_front();
        if (auto* hit = std::get_if<M>(&m)) return std::move(*hit);
      }
      if (cv_.wait_until(lock, until) == std::cv_status::timeout && out_.empty()) {
        return std::nullopt;
      }
    }
  }

  Probe probe_;
  GateApp app_{probe_};
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> guard_ = asio::make_work_guard(io_);
  asio::thread_pool pool_{1};
  std::unique_ptr<WorkerHost> host_;
  std::thread io_thread_;

 private:
  void sent(const std::vector<Frame>& frames) {
    std::lock_guard lock(mutex_);
    std::size_t reports = 0;
    for (const Frame& f : frames) {
      std::vector<std::uint8_t> bytes;  // a state piece is all tail, its header in front
      if (f.head) bytes.assign(f.head->begin(), f.head->end());
      bytes.insert(bytes.end(), f.tail.begin(), f.tail.end());
      auto header = decode_header(std::span<const std::uint8_t, kFrameHeaderSize>(
                                      bytes.data(), kFrameHeaderSize),
                                  1u << 30, kWorkerProtocolVersion);
      ASSERT_TRUE(header.is_ok()) << header.error();
      auto msg = decode_worker_body(
          header->type, std::span<const std::uint8_t>(bytes).subspan(kFrameHeaderSize));
      ASSERT_TRUE(msg.is_ok()) << msg.error();
      if (std::holds_alternative<WorkerEffects>(*msg)) ++reports;
      out_.push_back(std::move(*msg));
    }
    if (reports > 0) report_writes_.push_back(reports);
    cv_.notify_all();
  }

  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<WorkerMessage> out_;

 protected:
  // How many WorkerEffects each write to the daemon that had any carried.
  std::vector<std::size_t> report_writes() {
    std::lock_guard lock(mutex_);
    return report_writes_;
  }

 private:
  std::vector<std::size_t> report_writes_;
};

TEST_F(WorkerHostTest, AnIdleTasksCaptureDoesNotWaitForAPoolBusyWithAnotherTask) {
  handle(WorkerCreate{{0}});
  ASSERT_TRUE(next<WorkerCreated>().has_value());
  handle(WorkerStart{});  // task 0's start() now holds the pool's only thread
  // Task 2, made after the start, is not started: nothing of it runs or waits.
  handle(WorkerCreate{{2}});
  ASSERT_TRUE(next<WorkerCreated>().has_value());
  handle(WorkerTaskControl{2, TaskControlAction::kFreeze});
  handle(WorkerCapture{2, 5, 4096});
  auto sized = next<WorkerCaptureSized>();
  ASSERT_TRUE(sized.has_value()) << "the capture waited for the pool";
  EXPECT_EQ(sized->index, 2u);
  EXPECT_EQ(sized->attempt, 5u);
  auto done = next<WorkerCaptureDone>();
  ASSERT_TRUE(done.has_value());
  EXPECT_TRUE(done->ok) << done->error;
}

TEST_F(WorkerHostTest, AnArrivingTaskLoadsWhileThePoolRunsAnotherTasksHandler) {
  handle(WorkerCreate{{0}});
  ASSERT_TRUE(next<WorkerCreated>().has_value());
  handle(WorkerStart{});  // the pool's only thread is now held by task 0's start()
  for (std::size_t padding : {std::size_t{0}, std::size_t{200} << 10}) {
    auto installed = install(padding == 0 ? 1 : 2, padding, true);
    ASSERT_TRUE(installed.has_value()) << "the load of " << padding << " + a few bytes waited";
    EXPECT_TRUE(installed->ok) << installed->error;
  }
}

// A small state is loaded right on the I/O thread (no hops to the state thread and back), and so
// is the next capture of that task; a large one is loaded on the state thread, off the I/O thread.
TEST_F(WorkerHostTest, ASmallStateIsLoadedAndCapturedOnTheIoThreadALargeOneIsNot) {
  const auto io_thread = io_thread_.get_id();
  auto small = install(1, 100, false);
  EXPECT_TRUE(small.has_value() && small->ok);
  EXPECT_EQ(load_thread(), io_thread);
  auto large = install(2, 100u << 10, false);
  EXPECT_TRUE(large.has_value() && large->ok);
  EXPECT_NE(load_thread(), io_thread);

  auto done = freeze_and_capture(1);
  ASSERT_TRUE(done.has_value());
  EXPECT_TRUE(done->ok) << done->error;
  EXPECT_EQ(save_thread(), io_thread);
}

TEST_F(WorkerHostTest, ALargeStateIsCapturedOffTheIoThread) {
  ASSERT_TRUE(install(1, 100u << 10, false).has_value());
  auto done = freeze_and_capture(1);
  ASSERT_TRUE(done.has_value());
  EXPECT_TRUE(done->ok) << done->error;
  EXPECT_NE(save_thread(), io_thread_.get_id());
}

TEST_F(WorkerHostTest, AMessageForATaskWhoseStateIsBeingWrittenWaitsForTheCapture) {
  handle(WorkerCreate{{1, 2}});
  ASSERT_TRUE(next<WorkerCreated>().has_value());
  probe_.start_gate.open();
  handle(WorkerStart{});
  // Task 1's start ran (the pool is free again): wait for its effects, so nothing is queued.
  ASSERT_TRUE(next<WorkerEffects>().has_value());
  ASSERT_TRUE(next<WorkerEffects>().has_value());
  probe_.hold_saves = true;
  handle(WorkerTaskControl{1, TaskControlAction::kFreeze});
  handle(WorkerCapture{1, 1, 4096});
  while (!probe_.saving) std::this_thread::yield();  // the save is under way on the state thread
  // The daemon gives the move up and delivers a message: it must wait for the save.
  handle(WorkerTaskControl{1, TaskControlAction::kResume});
  handle(TaskMessage{TaskId{kJob, 2}, TaskId{kJob, 1}, 1, 3, 0, {1, 2, 3}});
  // Whatever was posted to the one-thread pool by now has run once this marker runs.
  std::promise<void> drained;
  asio::post(pool_, [&] { drained.set_value(); });
  drained.get_future().wait();
  EXPECT_EQ(probe_.received.load(), 0);
  probe_.save_gate.open();
  auto done = next<WorkerCaptureDone>();
  ASSERT_TRUE(done.has_value());
  EXPECT_TRUE(done->ok) << done->error;
  auto effects = next<WorkerEffects>();
  ASSERT_TRUE(effects.has_value()) << "the held message never ran";
  EXPECT_EQ(probe_.received.load(), 1);
  EXPECT_FALSE(probe_.received_while_saving.load());
}

// A task of a node that started sooner may send before this worker's tasks start: its message
// is received after the receiver's start(), never before.
TEST_F(WorkerHostTest, AMessageThatComesBeforeItsTaskStartsIsReceivedAfterTheStart) {
  handle(WorkerCreate{{1, 2}});
  ASSERT_TRUE(next<WorkerCreated>().has_value());
  handle(TaskMessage{TaskId{kJob, 2}, TaskId{kJob, 1}, 1, 3, 0, {1, 2, 3}});
  std::promise<void> drained;  // whatever was posted to the one-thread pool has run
  asio::post(pool_, [&] { drained.set_value(); });
  drained.get_future().wait();
  EXPECT_EQ(probe_.received.load(), 0) << "received before the job started";
  handle(WorkerStart{});
  while (probe_.received.load() == 0) {
    ASSERT_TRUE(next<WorkerEffects>().has_value()) << "the message never ran";
  }
  EXPECT_EQ(probe_.received.load(), 1);
  EXPECT_FALSE(probe_.received_before_start.load());
}

// Frozen to move before it started, a task's waiting message goes back to the daemon (which
// holds the task's deliveries for the move): its captured state has not seen it.
TEST_F(WorkerHostTest, AMessageWaitingForAStartGoesBackToTheDaemonWhenTheTaskIsFrozen) {
  handle(WorkerCreate{{1}});
  ASSERT_TRUE(next<WorkerCreated>().has_value());
  handle(TaskMessage{TaskId{kJob, 2}, TaskId{kJob, 1}, 1, 3, 0, {1, 2, 3}});
  handle(WorkerTaskControl{1, TaskControlAction::kFreeze});
  auto back = next<TaskMessage>();
  ASSERT_TRUE(back.has_value()) << "the waiting message was not handed back";
  EXPECT_EQ(back->to.index, 1u);
  EXPECT_EQ(back->seq, 1u);
  handle(TaskMessage{TaskId{kJob, 2}, TaskId{kJob, 1}, 2, 3, 0, {4}});  // already on its way
  auto later = next<TaskMessage>();
  ASSERT_TRUE(later.has_value()) << "a message that came while frozen was kept";
  EXPECT_EQ(later->seq, 2u);
  handle(WorkerCapture{1, 1, 4096});
  auto done = next<WorkerCaptureDone>();
  ASSERT_TRUE(done.has_value());
  EXPECT_TRUE(done->ok) << done->error;
  EXPECT_EQ(probe_.received.load(), 0);
}

// The reports of handlers that ran one behind the other on the pool reach the daemon in one
// write (sdk/effects_hold.h): the root wakes once for them, not once per task.
TEST_F(WorkerHostTest, TheReportsOfABurstOfHandlersGoInOneWrite) {
  handle(WorkerCreate{{0, 1, 2}});
  ASSERT_TRUE(next<WorkerCreated>().has_value());
  handle(WorkerStart{});  // task 0's start() holds the pool's only thread; 1's and 2's queue
  probe_.start_gate.open();
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(next<WorkerEffects>().has_value()) << i;
  EXPECT_EQ(report_writes(), (std::vector<std::size_t>{3}));
}

}  // namespace
}  // namespace drift
