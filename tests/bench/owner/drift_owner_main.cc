// drift_owner: a synthetic workstation owner (tests/support/synthetic_owner.h, seed 002's load
// generator). It ramps CPU-bound threads and touched memory linearly to their levels, touches an
// activity file at start and on a schedule, and prints how much work its first thread did in
// each report window — the "owner's CPU-bound process" whose rate the owner benchmark compares
// with the same process on an unloaded machine.
//   drift_owner [--cpu CORES] [--memory BYTES] [--ramp S] [--duration S] [--activity-file F]
//               [--touch-every S] [--report-every S] [--pin CPU]
// Output, one line per window: "<end of window, s since start> <work units per second>".
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <cstring>
#include <iostream>
#include <memory>
#include <thread>
#include <vector>

#include "tests/bench/raw/cpu_pinning.h"
#include "tests/support/synthetic_owner.h"

namespace po = boost::program_options;
using drift::test::OwnerSchedule;
using Clock = std::chrono::steady_clock;

namespace {

constexpr auto kDutyPeriod = std::chrono::milliseconds(100);

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// One unit of CPU-bound work (~a microsecond): a dependent chain the compiler cannot remove.
std::uint64_t work_unit(std::uint64_t x) {
  for (int i = 0; i < 200; ++i) x = x * 6364136223846793005ull + 1442695040888963407ull;
  return x;
}

struct Shared {
  OwnerSchedule schedule;
  Clock::time_point start;
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> units0{0};  // thread 0's work so far
  std::atomic<std::uint64_t> sink{0};
};

// Busy for duty(level(t), i) of every period, idle the rest.
void burn(Shared& s, std::uint32_t i) {
  std::uint64_t x = i + 1;
  while (!s.stop.load(std::memory_order_relaxed)) {
    const auto period_start = Clock::now();
    const double share =
        drift::test::duty(drift::test::ramped(s.schedule.cpu, s.schedule.ramp_s, since(s.start)), i);
    const auto busy_until = period_start + std::chrono::duration_cast<Clock::duration>(
                                               kDutyPeriod * share);
    while (Clock::now() < busy_until) {
      for (int k = 0; k < 64; ++k) x = work_unit(x);
      if (i == 0) s.units0.fetch_add(64, std::memory_order_relaxed);
    }
    std::this_thread::sleep_until(period_start + kDutyPeriod);  // the idle part of the duty cycle
  }
  s.sink.fetch_add(x, std::memory_order_relaxed);
}

void touch(const std::string& file) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    std::cerr << "drift_owner: cannot open --activity-file '" << file << "': " << std::strerror(errno)
              << "\n";
    return;
  }
  ::futimens(fd, nullptr);
  ::close(fd);
}

}  // namespace

int main(int argc, char** argv) {
  OwnerSchedule sched;
  std::string activity_file;
  double report_every = 0.25;
  int pin = -1;
  po::options_description options("drift_owner options");
  options.add_options()("help,h", "show this help")(
      "cpu", po::value(&sched.cpu)->value_name("CORES"), "busy cores at full level (default 1)")(
      "memory", po::value(&sched.memory)->value_name("BYTES"), "memory at full level (default 0)")(
      "ramp", po::value(&sched.ramp_s)->value_name("S"), "seconds to reach the levels (default 0)")(
      "duration", po::value(&sched.duration_s)->value_name("S"), "seconds to run (default 10)")(
      "activity-file", po::value(&activity_file)->value_name("F"), "touched at start and ...")(
      "touch-every", po::value(&sched.touch_every_s)->value_name("S"), "... every S s (0: once)")(
      "report-every", po::value(&report_every)->value_name("S"), "report window (default 0.25)")(
      "pin", po::value(&pin)->value_name("CPU"), "run every thread on this CPU (default: any)");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, options), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "drift_owner: " << e.what() << " (see --help)\n";
    return 2;
  }
  if (vm.count("help")) return std::cout << options, 0;
  if (auto st = drift::test::validate(sched); !st) {
    std::cerr << "drift_owner: " << st.message() << "\n";
    return 2;
  }
  if (!(report_every > 0)) return std::cerr << "drift_owner: --report-every must be > 0\n", 2;
  if (pin >= 0) {
    if (auto st = drift::bench::pin_this_thread(pin); !st) {
      std::cerr << "drift_owner: --pin " << pin << ": " << st.message() << "\n";
      return 2;
    }
  }
  Shared s;
  s.schedule = sched;
  s.start = Clock::now();
  double last_touch = -1;
  if (!activity_file.empty()) touch(activity_file), last_touch = 0;
  std::vector<std::thread> threads;
  for (std::uint32_t i = 0; i < drift::test::threads_for(sched); ++i) {
    threads.emplace_back(burn, std::ref(s), i);
  }
  std::vector<std::unique_ptr<char[]>> memory;
  constexpr std::size_t kBlock = 1 << 20;
  std::uint64_t held = 0, last_units = 0;
  double window_start = 0;
  while (since(s.start) < sched.duration_s) {
    const double t = since(s.start);
    if (!activity_file.empty() && drift::test::touch_due(sched, t, last_touch)) {
      touch(activity_file);
      last_touch = t;
    }
    const auto want = static_cast<std::uint64_t>(
        drift::test::ramped(static_cast<double>(sched.memory), sched.ramp_s, t));
    for (; held + kBlock <= want; held += kBlock) {
      memory.emplace_back(new char[kBlock]);
      std::memset(memory.back().get(), 1, kBlock);  // touched: really resident
    }
    if (t - window_start >= report_every) {
      const std::uint64_t units = s.units0.load(std::memory_order_relaxed);
      std::cout << t << " " << (units - last_units) / (t - window_start) << std::endl;
      last_units = units;
      window_start = t;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));  // the owner's own pace
  }
  s.stop = true;
  for (auto& t : threads) t.join();
  return s.sink.load() == 42 ? 3 : 0;  // keeps the work observable
}
