#include "node/machine/emulated_compute.h"

#include <chrono>
#include <thread>

namespace drift {

double emulated_compute(const Emulator* emulator, double work_units,
                        const std::function<void()>& fn) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point begin = Clock::now();
  fn();
  if (emulator && emulator->enabled()) {
    const double real = std::chrono::duration<double>(Clock::now() - begin).count();
    const double wall = emulator->stretch(work_units, real, emulator->seconds_since_start(begin));
    std::this_thread::sleep_until(
        begin + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(wall)));
  }
  return std::chrono::duration<double>(Clock::now() - begin).count();
}

double emulated_benchmark(const Emulator& emulator, double seconds) {
  const double now = emulator.seconds_since_start(Emulator::Clock::now());
  const double work = emulator.rate(now) * seconds;
  const double wall = emulated_compute(&emulator, work, [] {});
  return wall > 0 ? work / wall : emulator.rate(now);
}

}  // namespace drift
