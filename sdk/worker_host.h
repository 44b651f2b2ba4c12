// The tasks of one job on one node, inside the worker process the daemon started for it
// (docs/architecture.md §11.2). The I/O thread takes the daemon's frames and owns the task
// slots; handlers run on the worker's pool, one at a time per task (a strand), or inline on the
// I/O thread when they are short and nothing is queued. A handler's effects come back to the I/O
// thread, which delivers its messages to tasks of this worker directly — unless the receiver is
// frozen for a move or the node is paused, when the daemon holds its deliveries — and sends the
// rest, then the effects, to the daemon. Messages are delivered per channel in order, exactly
// once (ChannelReceiver). A checkpointed reduction makes the task save its state just before it
// takes it; a capture writes a frozen task's state in pieces after its current handler (on the
// state thread when the task has nothing queued; its deliveries wait meanwhile).
#pragma once

#include <asio.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "node/machine/emulation.h"
#include "protocol/frame.h"
#include "protocol/out_frame.h"
#include "protocol/worker_messages.h"
#include "sdk/effects_hold.h"
#include "sdk/task_context.h"
#include "sdk/task_slot.h"
#include "sdk/worker_job.h"

namespace drift {

class WorkerHost {
 public:
  // Queues frames for the daemon, in order, written together (I/O thread).
  using Send = std::function<void(std::vector<Frame> frames)>;

  WorkerHost(asio::io_context& io, asio::thread_pool& pool, const Application& app,
             const WorkerSetup& setup, Send send);
  ~WorkerHost();

  // One message from the daemon (I/O thread). An error means the daemon broke the protocol.
  Status handle(WorkerMessage&& msg);

 private:
  using Handler = std::function<void(TaskSlot&, TaskContext&)>;
  // A task arriving: its state's pieces until they are all here, then loading on the pool;
  // messages for it wait meanwhile.
  struct Install {
    WorkerInstall request;
    std::uint64_t received = 0;
    std::vector<std::vector<std::uint8_t>> pieces;
    bool loading = false;
    std::vector<TaskMessage> waiting;
  };
  struct Loading {
    WorkerInstall request;
    std::vector<std::vector<std::uint8_t>> pieces;
  };

  Status create(const WorkerCreate& req);
  void start_all();
  // Runs the task's start() and then the messages that waited for it.
  void start_task(const std::shared_ptr<TaskSlot>& slot);
  Status deliver(TaskMessage&& msg);
  Status control(const WorkerTaskControl& req);
  void pause(bool paused);
  Status capture(const WorkerCapture& req);
  Status begin_install(const WorkerInstall& req);
  Status install_bytes(WorkerStateBytes&& piece);
  void load(Install& install);
  void on_loaded(std::uint32_t index, bool start, Result<std::shared_ptr<TaskSlot>> slot);

  void post_delivery(const std::shared_ptr<TaskSlot>& slot, TaskMessage&& msg);
  void run(const std::shared_ptr<TaskSlot>& slot, Handler handler);
  bool may_run_inline(const TaskSlot& slot) const;
  HandlerOutcome execute(TaskSlot& slot, const Handler& handler);
  void absorb(HandlerOutcome&& effects);
  void send_task_message(TaskMessage&& msg);
  void send_state(StateBytesKind kind, std::uint32_t index, std::uint64_t attempt,
                  std::shared_ptr<const std::vector<std::uint8_t>> bytes);
  Status write_capture(TaskSlot& slot, const WorkerCapture& req);
  std::shared_ptr<TaskSlot> find(std::uint32_t index) const;
  void reply(const WorkerMessage& msg);
  // A handler's report: held while the worker is busy, if nothing in it is urgent.
  void report(const WorkerEffects& report);
  // A frame for the daemon: into the outbox while a handler's effects are being handed on (they
  // go in one write), else at once; after the reports held, unless it is a task's message
  // (`overtakes_held`).
  void emit(Frame frame, bool overtakes_held = false);

  asio::io_context& io_;
  asio::thread_pool& pool_;
  WorkerJob job_;
  Emulator emulator_;
  std::uint32_t inline_us_;
  std::uint64_t max_payload_;
  std::uint32_t piece_bytes_;
  Send send_;
  bool in_inline_handler_ = false;  // no nesting: a local send runs its target on the pool
  bool paused_ = false;
  bool started_ = false;  // WorkerStart came: tasks loaded later start at once
  std::map<std::uint32_t, std::shared_ptr<TaskSlot>> slots_;
  std::map<std::uint32_t, Install> installs_;  // by task index, while their bytes arrive
  std::shared_ptr<bool> alive_;                 // posted completions check it
  std::vector<Frame>* outbox_ = nullptr;
  EffectsHold hold_;  // plain reports while more handlers are under way
  // Loads, and captures of tasks with nothing queued, run on a thread of their own: a state does
  // not wait for the pool, whose threads may all be running other tasks' handlers. Last, so it
  // is joined before the members its work uses go.
  asio::thread_pool state_thread_{1};
  // A state this small is loaded or captured right on the I/O thread (when short handlers may run
  // there too): a few microseconds of work, where the two hops to the state thread and back
  // waited for a CPU — on a busy node, behind the other tasks' computing threads, up to a
  // millisecond and more a move.
  static constexpr std::uint64_t kInlineStateBytes = 64u << 10;
  static std::string index_text(std::uint32_t index);  // "task 3", for errors
  // `work` on the state thread, or at once here if `small` and short work may run here.
  void on_state_thread(bool small, std::function<void()> work);
};

}  // namespace drift
