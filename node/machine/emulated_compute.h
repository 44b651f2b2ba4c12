// One compute as an emulated machine runs it (docs/architecture.md §8.6): fn runs at full speed, then, if
// emulation is on, the calling thread sleeps until the compute has taken the wall time the
// emulated machine would need. Shared by ctx.compute and the start-up capacity benchmark, so both
// measure the same emulated speed. Blocks the caller: call it on a worker, never the network
// thread.
#pragma once

#include <functional>

#include "node/machine/emulation.h"

namespace drift {

// Runs fn, which does `work_units` of abstract work; returns the wall seconds it took, stretch
// included. `emulator` may be null (no emulation).
double emulated_compute(const Emulator* emulator, double work_units,
                        const std::function<void()>& fn);

// Work units per second this node computes, measured through emulated_compute with a compute
// the emulated machine needs about `seconds` for (no real work is done). Emulation must be on.
double emulated_benchmark(const Emulator& emulator, double seconds = 0.05);

}  // namespace drift
