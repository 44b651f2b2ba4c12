// WorkerHost's side of a task's state (docs/architecture.md §11.2): a frozen task's capture,
// written in pieces between two handlers, and a task arriving — its state's pieces, its load on
// the state thread, its start.
#include "sdk/worker_host.h"

#include <algorithm>
#include <new>

#include "migration/buffer_pool.h"
#include "migration/state_writer.h"
#include "protocol/worker_codec.h"
#include "sdk/hosted_task_state.h"

namespace drift {

// The state is written between two handlers: after every handler posted before it (on the
// strand), or at once on the state thread when there is none.
Status WorkerHost::capture(const WorkerCapture& req) {
  auto slot = find(req.index);
  if (!slot || !slot->frozen) {
    reply(WorkerCaptureDone{req.index, req.attempt, false, "the task is not frozen here"});
    return Status::ok();
  }
  if (slot->capturing) {
    slot->deferred.push_back([this, req] { capture(req); });
    return Status::ok();
  }
  if (slot->queued.load(std::memory_order_acquire) == 0) {
    // Nothing of the task runs or waits: its state is written on the state thread at once (here,
    // if it was small last time), and anything asked of the task meanwhile (it may be resumed)
    // waits for the end (run()). Its completion is posted behind the pieces either way.
    slot->capturing = true;
    const bool small = slot->state_bytes.load(std::memory_order_relaxed) <= kInlineStateBytes;
    on_state_thread(small, [this, slot, req, alive = alive_] {
      Status status = write_capture(*slot, req);
      asio::post(io_, [this, slot, req, alive, status = std::move(status)] {
        if (!*alive) return;
        reply(WorkerCaptureDone{req.index, req.attempt, status.is_ok(), status.message()});
        slot->capturing = false;
        auto deferred = std::move(slot->deferred);
        slot->deferred.clear();
        for (auto& next : deferred) next();
      });
    });
    return Status::ok();
  }
  slot->queued.fetch_add(1, std::memory_order_relaxed);
  asio::post(slot->strand, [this, slot, req, alive = alive_] {
    Status status = write_capture(*slot, req);
    slot->queued.fetch_sub(1, std::memory_order_release);
    asio::post(io_, [this, req, alive, status = std::move(status)] {
      if (*alive) reply(WorkerCaptureDone{req.index, req.attempt, status.is_ok(), status.message()});
    });
  });
  return Status::ok();
}

// The worker side of a capture (on the strand or the state thread): counts the state, then
// writes it in pieces, each sent as soon as it is full (its frame's header is written in front of
// it, so it is never copied).
Status WorkerHost::write_capture(TaskSlot& slot, const WorkerCapture& req) {
  if (slot.finished || slot.stopped) return Status::error("the task has finished");
  try {
    ByteCounter counter;
    {
      PortableOutputArchive ar(counter);
      save_hosted_task(ar, *slot.task, slot.receiver, slot.sender);
    }
    const std::uint64_t total = counter.count();
    slot.state_bytes.store(total, std::memory_order_relaxed);
    asio::post(io_, [this, req, total, alive = alive_] {
      if (*alive) reply(WorkerCaptureSized{req.index, req.attempt, total});
    });
    const WorkerStateBytes head{StateBytesKind::kCapture, req.index, req.attempt, 0, {}};
    const std::size_t front = encode_worker_prefix(head, 0).size();
    auto hand_over = [this, head, front, alive = alive_](std::uint32_t, BufferPool::Ptr piece) {
      const auto prefix = encode_worker_prefix(head, piece->size - front);
      std::copy(prefix.begin(), prefix.end(), piece->data.get());
      asio::post(io_, [this, piece = std::move(piece), alive] {
        if (!*alive) return;
        Frame frame;
        frame.tail = piece->bytes();
        frame.tail_owner = piece;
        emit(std::move(frame));
      });
    };
    const std::uint32_t piece_bytes = std::max<std::uint32_t>(req.piece_bytes, 4096);
    StateWriter writer(BufferPool::shared(), piece_bytes, front, total, hand_over);
    {
      PortableOutputArchive ar(writer);
      save_hosted_task(ar, *slot.task, slot.receiver, slot.sender);
    }
    writer.finish();
    return Status::ok();
  } catch (const std::bad_alloc&) {
    return Status::error("saving the task's state ran out of memory");
  } catch (const std::exception& e) {
    return Status::error(std::string("saving the task's state failed: ") + e.what());
  }
}

Status WorkerHost::begin_install(const WorkerInstall& req) {
  if (req.index >= job_.spec.tasks || slots_.count(req.index) || installs_.count(req.index)) {
    reply(WorkerInstalled{req.index, false, index_text(req.index) + " is already here", 0});
    return Status::error("WorkerInstall of " + index_text(req.index) +
                         ", which is outside the job or already here");
  }
  Install& in = installs_[req.index];
  in.request = req;
  if (req.total == 0) load(in);
  return Status::ok();
}

Status WorkerHost::install_bytes(WorkerStateBytes&& piece) {
  auto it = installs_.find(piece.index);
  if (piece.kind != StateBytesKind::kInstall || it == installs_.end() || it->second.loading) {
    return Status::error("state bytes for " + index_text(piece.index) + " that no install awaits");
  }
  Install& in = it->second;
  if (piece.bytes.size() > in.request.total - in.received) {
    return Status::error("more state bytes for " + index_text(piece.index) + " than the " +
                         std::to_string(in.request.total) + " announced");
  }
  in.received += piece.bytes.size();
  in.pieces.push_back(std::move(piece.bytes));
  if (in.received == in.request.total) load(in);
  return Status::ok();
}

// On the state thread: the task made and loaded from its state (none: made afresh), then back
// here.
void WorkerHost::load(Install& install) {
  install.loading = true;
  auto shared = std::make_shared<Loading>(Loading{install.request, std::move(install.pieces)});
  on_state_thread(install.request.total <= kInlineStateBytes, [this, shared, alive = alive_] {
    const std::uint32_t index = shared->request.index;
    Result<std::shared_ptr<TaskSlot>> slot = Status::error("");
    try {
      auto task = job_.app->create_task(job_.spec, index);
      if (!task) {
        slot = Status::error(job_.app->name() + " made no task for index " +
                             std::to_string(index));
      } else {
        auto made = std::make_shared<TaskSlot>(TaskId{job_.id, index}, job_, std::move(task), pool_);
        if (shared->request.total > 0) {
          std::vector<std::span<const std::uint8_t>> spans;
          for (const auto& p : shared->pieces) spans.emplace_back(p);
          BoundedInputArchive ar{std::span<const std::span<const std::uint8_t>>(spans)};
          load_hosted_task(ar, *made->task, made->receiver, made->sender);
          if (ar.remaining() != 0) {
            throw WireError(std::to_string(ar.remaining()) +
                            " bytes left over: the task's load_state reads less than its "
                            "save_state writes");
          }
        }
        made->state_bytes.store(shared->request.total, std::memory_order_relaxed);
        slot = made;
      }
    } catch (const std::bad_alloc&) {
      slot = Status::error("loading the task's state ran out of memory");
    } catch (const std::exception& e) {
      slot = Status::error(std::string("the task's state does not load: ") + e.what());
    }
    shared->pieces.clear();
    asio::post(io_, [this, index, start = shared->request.start, alive, slot = std::move(slot)] {
      if (*alive) on_loaded(index, start, std::move(slot));
    });
  });
}

void WorkerHost::on_state_thread(bool small, std::function<void()> work) {
  if (small && inline_us_ > 0 && !in_inline_handler_) return work();
  asio::post(state_thread_, std::move(work));
}

// A move's task starts at once; a rollback's when the job starts (perhaps already).
void WorkerHost::on_loaded(std::uint32_t index, bool start,
                           Result<std::shared_ptr<TaskSlot>> loaded) {
  auto it = installs_.find(index);
  if (it == installs_.end()) return;  // given up meanwhile (kRelease): nothing of it stays
  std::vector<TaskMessage> waiting = std::move(it->second.waiting);
  installs_.erase(it);
  if (!loaded) return reply(WorkerInstalled{index, false, loaded.error(), 0});
  std::shared_ptr<TaskSlot> slot = std::move(loaded).value();
  double load = 0;
  try {
    load = slot->task->load();
  } catch (const std::exception& e) {
    return reply(WorkerInstalled{index, false, std::string("load() threw: ") + e.what(), 0});
  }
  slots_[index] = slot;
  reply(WorkerInstalled{index, true, "", load});
  for (TaskMessage& m : waiting) post_delivery(slot, std::move(m));  // wait for its start()
  if (start || started_) start_task(slot);
}

// In pieces of piece_bytes_, each a frame whose tail points into `bytes` (no copy).
void WorkerHost::send_state(StateBytesKind kind, std::uint32_t index, std::uint64_t attempt,
                            std::shared_ptr<const std::vector<std::uint8_t>> bytes) {
  const WorkerStateBytes head{kind, index, attempt,
                              kind == StateBytesKind::kCheckpoint ? bytes->size() : 0, {}};
  std::size_t at = 0;
  do {
    const std::size_t n = std::min<std::size_t>(piece_bytes_, bytes->size() - at);
    Frame frame = make_frame(encode_worker_prefix(head, n));
    frame.tail = std::span<const std::uint8_t>(bytes->data() + at, n);
    frame.tail_owner = bytes;
    emit(std::move(frame));
    at += n;
  } while (at < bytes->size());
}

}  // namespace drift
