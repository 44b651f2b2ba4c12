// Emulated machines for the performance testbed (docs/architecture.md §8.6): a node given a relative speed and
// an external-load schedule (seed 002's synthetic load generator: linear ramps to a level) takes
// the wall time such a machine would take for every ctx.compute. Pure: time comes in as seconds
// since the daemon started. The balancer never reads any of this; it only sees what it measures.
#pragma once

#include <chrono>
#include <string_view>
#include <vector>

#include <drift/status.h>

namespace drift {

// From `start_s` seconds after the daemon started, the external load (runnable competing
// processes) moves linearly over `ramp_s` seconds from wherever it was to `level`, and stays.
struct LoadRamp {
  double start_s = 0;
  double ramp_s = 0;
  double level = 0;

  friend bool operator==(const LoadRamp&, const LoadRamp&) = default;
};

// "start_s:ramp_s:level", e.g. "30:10:2"; every field a finite number >= 0. The error names the
// field and its text; the caller adds the key and where it came from.
Result<LoadRamp> parse_load_ramp(std::string_view text);

struct EmulationSettings {
  double speed = 0;            // relative speed; 0 = no emulation
  double unit_rate = 100000;   // work units per second at speed 1 on an unloaded machine
  std::vector<LoadRamp> load;  // as configured; a later entry takes over from the earlier ones
};

class Emulator {
 public:
  using Clock = std::chrono::steady_clock;

  Emulator(EmulationSettings settings, Clock::time_point start);

  bool enabled() const { return settings_.speed > 0; }
  const EmulationSettings& settings() const { return settings_; }
  double seconds_since_start(Clock::time_point t) const;

  // Competing runnable processes at `t_s` seconds after start: 0 before the first ramp; each
  // ramp starts from the level the schedule had reached at its start_s (ramps that overlap hand
  // over, they do not add up); entries with equal start_s: the later one wins.
  double external_load(double t_s) const;
  // Work units per second this emulated CPU gives a task at `t_s`: unit_rate × speed × share,
  // share = 1 / (1 + external load) (the competing CPU-bound processes share it fairly).
  double rate(double t_s) const;
  // Wall seconds a compute of `work_units` that really took `real_s` must take when it began at
  // `t_s`: max(real_s, work_units / rate(t_s)); real_s itself when emulation is off.
  double stretch(double work_units, double real_s, double t_s) const;

 private:
  EmulationSettings settings_;
  std::vector<LoadRamp> schedule_;  // settings_.load stably sorted by start_s
  Clock::time_point start_;
};

}  // namespace drift
