#include "node/machine/emulated_compute.h"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace drift {

double thread_cpu_seconds() {
  timespec ts{};
  if (::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

ComputeTime emulated_compute(const Emulator* emulator, double work_units,
                             const std::function<void()>& fn) {
  using Clock = std::chrono::steady_clock;
  const bool emulated = emulator && emulator->enabled();
  const double cpu_begin = emulated ? 0 : thread_cpu_seconds();
  const Clock::time_point begin = Clock::now();
  fn();
  if (emulated) {
    const double real = std::chrono::duration<double>(Clock::now() - begin).count();
    const double wall = emulator->stretch(work_units, real, emulator->seconds_since_start(begin));
    std::this_thread::sleep_until(
        begin + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(wall)));
  }
  ComputeTime t;
  t.wall_s = std::chrono::duration<double>(Clock::now() - begin).count();
  t.cpu_s = emulated ? t.wall_s : std::max(0.0, thread_cpu_seconds() - cpu_begin);
  return t;
}

double emulated_benchmark(const Emulator& emulator, double seconds) {
  const double now = emulator.seconds_since_start(Emulator::Clock::now());
  const double work = emulator.rate(now) * seconds;
  const double wall = emulated_compute(&emulator, work, [] {}).wall_s;
  return wall > 0 ? work / wall : emulator.rate(now);
}

}  // namespace drift
