// The replacement global operator new behind AllocationTracker (kept out of line so the compiler
// never pairs an inlined malloc/free with new/delete expressions elsewhere).
#include "tests/protocol/allocation_tracker.h"

#include <atomic>
#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define DRIFT_TRACK_ALLOCATIONS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DRIFT_TRACK_ALLOCATIONS 0
#endif
#endif
#ifndef DRIFT_TRACK_ALLOCATIONS
#define DRIFT_TRACK_ALLOCATIONS 1
#endif

namespace {

std::atomic<bool> g_tracking{false};
std::atomic<std::size_t> g_largest{0};

}  // namespace

#if DRIFT_TRACK_ALLOCATIONS
// The default array, nothrow and sized forms all end up here.
void* operator new(std::size_t size) {
  if (g_tracking.load(std::memory_order_relaxed) &&
      size > g_largest.load(std::memory_order_relaxed)) {
    g_largest.store(size, std::memory_order_relaxed);
  }
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#endif

namespace drift::test {

bool AllocationTracker::available() { return DRIFT_TRACK_ALLOCATIONS != 0; }

void AllocationTracker::start() {
  g_largest.store(0);
  g_tracking.store(true);
}

void AllocationTracker::stop() { g_tracking.store(false); }

std::size_t AllocationTracker::largest() { return g_largest.load(); }

}  // namespace drift::test
