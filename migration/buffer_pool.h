// Reusable byte buffers for task state in transit (docs/architecture.md §3, §7). A 64 MiB move fills 64
// chunk buffers at each end; touching fresh memory for them at every move costs a page fault per
// 4 KiB, as much as copying the bytes. Buffers taken here come back when their last owner drops
// them and are handed out again; the pool keeps at most `max_idle_bytes` of them, and
// trim_if_unused(), called now and then, frees them after a quiet spell, so an idle daemon does not
// hold on to memory. Small requests are plain allocations. Thread-safe: buffers are filled on
// workers and sent from the network thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

namespace drift {

class BufferPool {
 public:
  // `capacity` bytes (not zeroed: contents unspecified), `size` of them in use.
  struct Buffer {
    std::unique_ptr<std::uint8_t[]> data;
    std::size_t capacity = 0;
    std::size_t size = 0;

    std::span<std::uint8_t> bytes() { return {data.get(), size}; }
    std::span<const std::uint8_t> bytes() const { return {data.get(), size}; }
  };
  using Ptr = std::shared_ptr<Buffer>;

  static constexpr std::size_t kGranule = 64u << 10;  // pooled capacities are multiples of it

  explicit BufferPool(std::size_t max_idle_bytes);

  // A buffer with size() == `size`; reused when an idle one fits (at most twice as large).
  Ptr take(std::size_t size);
  // Frees every idle buffer if none was taken since the previous call.
  void trim_if_unused();
  std::size_t idle_bytes() const;

  // The daemon's pool for state chunks, shared by the network and the task host.
  static BufferPool& shared();

 private:
  struct State;  // the buffers' deleters point to it weakly: a buffer may outlive its pool
  std::shared_ptr<State> state_;
};

}  // namespace drift
