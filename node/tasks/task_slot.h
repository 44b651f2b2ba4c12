// One hosted task and what travels with it: its object, its channels' sequence state, and the
// strand that makes its handlers run one at a time on the worker pool (actor style, DESIGN.md §3).
// Fields below the strand are touched only by the handler running for the task: on the strand,
// or inline on the network thread when nothing is queued on the strand (TaskHost::run).
#pragma once

#include <asio.hpp>

#include <atomic>
#include <memory>

#include <drift/application.h>
#include "node/tasks/channel_receiver.h"
#include <drift/task.h>

namespace drift {

// A message that arrived while its task was frozen, with the node it came from.
struct HeldMessage {
  TaskMessage msg;
  std::uint32_t from_node = 0;
};

// Per-job facts every task of the job on this node shares; immutable once created.
struct JobInfo {
  std::uint64_t id = 0;
  std::uint32_t root = 0;
  std::uint32_t generation = 0;  // rollbacks so far (DESIGN.md §9); stamped on what tasks send
  JobSpec spec;
  const Application* app = nullptr;
};

struct TaskSlot {
  TaskSlot(TaskId id_, std::shared_ptr<const JobInfo> job_, std::unique_ptr<Task> task_,
           asio::thread_pool& pool)
      : id(id_), job(std::move(job_)), task(std::move(task_)), strand(asio::make_strand(pool)) {}

  const TaskId id;
  const std::shared_ptr<const JobInfo> job;
  std::unique_ptr<Task> task;
  asio::strand<asio::thread_pool::executor_type> strand;
  ChannelReceiver receiver;
  ChannelSender sender;
  std::atomic<bool> finished{false};  // written on the strand, read by the network thread
  std::atomic<bool> stopped{false};   // set by the network thread when the job ends
  std::atomic<std::uint32_t> queued{0};  // work posted to the strand and not yet done
  std::atomic<std::uint32_t> handler_us{~0u};  // recent handler wall time (EWMA); ~0: unknown

  // Network thread only.
  std::uint64_t epoch = 0;             // how many times the task has moved
  bool frozen = false;                 // being migrated: deliveries wait in `held`
  std::vector<HeldMessage> held;
};

}  // namespace drift
