#include "migration/buffer_pool.h"

#include <algorithm>
#include <mutex>
#include <vector>

namespace drift {

struct BufferPool::State {
  explicit State(std::size_t max) : max_idle(max) {}

  // Keeps `b` for reuse if there is room, else frees it.
  void give_back(Buffer* b) {
    std::unique_ptr<Buffer> owned(b);
    std::lock_guard lock(mu);
    if (idle_bytes + b->capacity > max_idle) return;
    idle_bytes += b->capacity;
    idle.push_back(std::move(owned));
  }

  const std::size_t max_idle;
  mutable std::mutex mu;
  std::vector<std::unique_ptr<Buffer>> idle;
  std::size_t idle_bytes = 0;
  std::uint64_t takes = 0;          // pooled buffers handed out, ever
  std::uint64_t takes_at_trim = 0;  // as of the previous trim_if_unused()
};

BufferPool::BufferPool(std::size_t max_idle_bytes)
    : state_(std::make_shared<State>(max_idle_bytes)) {}

BufferPool::Ptr BufferPool::take(std::size_t size) {
  if (size < kGranule) {
    auto b = std::make_shared<Buffer>();
    b->data.reset(new std::uint8_t[size]);
    b->capacity = b->size = size;
    return b;
  }
  const std::size_t capacity = (size + kGranule - 1) / kGranule * kGranule;
  std::unique_ptr<Buffer> found;
  {
    std::lock_guard lock(state_->mu);
    ++state_->takes;
    auto& idle = state_->idle;
    auto best = idle.end();
    for (auto it = idle.begin(); it != idle.end(); ++it) {
      const std::size_t c = (*it)->capacity;
      if (c >= capacity && c <= 2 * capacity && (best == idle.end() || c < (*best)->capacity)) {
        best = it;
      }
    }
    if (best != idle.end()) {
      found = std::move(*best);
      *best = std::move(idle.back());
      idle.pop_back();
      state_->idle_bytes -= found->capacity;
    }
  }
  if (!found) {
    found = std::make_unique<Buffer>();
    found->data.reset(new std::uint8_t[capacity]);  // not zeroed: the caller fills it
    found->capacity = capacity;
  }
  found->size = size;
  std::weak_ptr<State> home = state_;
  return Ptr(found.release(), [home](Buffer* b) {
    if (auto state = home.lock()) return state->give_back(b);
    delete b;
  });
}

void BufferPool::trim_if_unused() {
  std::vector<std::unique_ptr<Buffer>> freed;  // freed after the lock is released
  std::lock_guard lock(state_->mu);
  const bool used = state_->takes != state_->takes_at_trim;
  state_->takes_at_trim = state_->takes;
  if (used) return;
  freed.swap(state_->idle);
  state_->idle_bytes = 0;
}

std::size_t BufferPool::idle_bytes() const {
  std::lock_guard lock(state_->mu);
  return state_->idle_bytes;
}

BufferPool& BufferPool::shared() {
  // Room for the chunks of a 100 MiB state; the transport trims it every half minute.
  static BufferPool pool(128u << 20);
  return pool;
}

}  // namespace drift
