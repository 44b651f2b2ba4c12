// One task in a worker and what travels with it: its object, its channels' sequence state, and
// the strand that makes its handlers run one at a time on the worker's pool (actor style). Fields
// below the strand are touched only by the handler running for the task: on the strand, or
// inline on the worker's I/O thread when nothing is queued on the strand (WorkerHost::run).
#pragma once

#include <asio.hpp>

#include <atomic>
#include <functional>
#include <memory>
#include <vector>

#include <drift/task.h>
#include "sdk/channel_receiver.h"
#include "sdk/worker_job.h"

namespace drift {

struct TaskSlot {
  TaskSlot(TaskId id_, const WorkerJob& job_, std::unique_ptr<Task> task_,
           asio::thread_pool& pool)
      : id(id_), job(job_), task(std::move(task_)), strand(asio::make_strand(pool)) {}

  const TaskId id;
  const WorkerJob& job;
  std::unique_ptr<Task> task;
  asio::strand<asio::thread_pool::executor_type> strand;
  ChannelReceiver receiver;
  ChannelSender sender;
  std::atomic<bool> finished{false};     // written on the strand, read by the I/O thread
  std::atomic<bool> stopped{false};      // set by the I/O thread when the task leaves
  std::atomic<std::uint32_t> queued{0};  // work posted to the strand and not yet done
  std::atomic<std::uint32_t> handler_us{~0u};  // recent handler wall time (EWMA); ~0: unknown
  // Its state's size when last loaded, checkpointed or captured; ~0: unknown. A small one is
  // captured on the I/O thread (WorkerHost::capture).
  std::atomic<std::uint64_t> state_bytes{~0ull};

  // I/O thread only.
  bool started = false;
  bool frozen = false;     // being moved: the daemon holds its deliveries
  bool capturing = false;  // its state is being written off the strand: handlers and captures
  std::vector<std::function<void()>> deferred;  // asked meanwhile wait here, in order
  // Messages that came before its start() ran (a task of a node that started sooner, or of
  // this worker whose start() ran first): delivered right after it, so receive() never
  // precedes start(). Handed back to the daemon if the task is frozen to move meanwhile.
  std::vector<TaskMessage> unstarted;
};

}  // namespace drift
