// One compute as an emulated machine runs it (docs/architecture.md §8.6): fn runs at full speed, then, if
// emulation is on, the calling thread sleeps until the compute has taken the wall time the
// emulated machine would need. Shared by ctx.compute and the start-up capacity benchmark, so both
// measure the same emulated speed. Blocks the caller: call it on a worker, never the network
// thread.
#pragma once

#include <functional>

#include "node/machine/emulation.h"

namespace drift {

struct ComputeTime {
  double wall_s = 0;  // the wall seconds it took, stretch included
  // The seconds the machine's speed is measured by: on a real machine the CPU time the thread
  // got (a throttled or shared CPU does not make the core look slower: the share it gets is
  // counted apart, docs/architecture.md §8.1); emulated, the stretched wall time.
  double cpu_s = 0;
};

// Runs fn, which does `work_units` of abstract work. `emulator` may be null (no emulation).
ComputeTime emulated_compute(const Emulator* emulator, double work_units,
                             const std::function<void()>& fn);

// Work units per second this node computes, measured through emulated_compute with a compute
// the emulated machine needs about `seconds` for (no real work is done). Emulation must be on.
double emulated_benchmark(const Emulator& emulator, double seconds = 0.05);

// CPU seconds the calling thread has had (CLOCK_THREAD_CPUTIME_ID); 0 if unreadable.
double thread_cpu_seconds();

}  // namespace drift
