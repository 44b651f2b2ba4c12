// Seed 002's synthetic load generator as a workstation owner (docs/architecture.md §9): from its start it
// ramps CPU (busy cores, fractions allowed) and memory (bytes allocated and touched) linearly over
// `ramp_s` to their levels and holds them, and touches an activity file at start and then every
// `touch_every_s`. This is the pure schedule; tests/bench/owner/drift_owner_main.cc runs it.
#pragma once

#include <cstdint>
#include <string>

#include <drift/status.h>

namespace drift::test {

struct OwnerSchedule {
  double cpu = 1;              // busy cores at full level
  std::uint64_t memory = 0;    // bytes at full level
  double ramp_s = 0;           // 0: full level at once
  double duration_s = 10;      // then the owner leaves
  double touch_every_s = 0;    // 0: touch once, at start
};

// The level reached `t_s` seconds after start: level × min(1, t_s / ramp_s); 0 before start.
double ramped(double level, double ramp_s, double t_s);
// The share of time busy thread `i` (0-based) spends computing at CPU level `level`:
// clamp(level - i, 0, 1), so level 1.5 is one thread always busy and one half the time.
double duty(double level, std::uint32_t i);
// Threads the schedule needs: ceil(cpu), at least 1 (thread 0 measures the owner's work rate).
std::uint32_t threads_for(const OwnerSchedule& s);
// Whether a touch is due at `t_s` when the last one was at `last_s` (negative: none yet).
bool touch_due(const OwnerSchedule& s, double t_s, double last_s);
// Checks the numbers a user gave; the error names the option and its value.
Status validate(const OwnerSchedule& s);

}  // namespace drift::test
