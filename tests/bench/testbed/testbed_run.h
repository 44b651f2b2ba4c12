// One row of the testbed benchmark: a fresh local cluster of emulated machines (emulate.speed
// and optional external-load ramps per daemon, one worker each, a balancing strategy and
// capacity mode for all) or of real ones (a CPU quota per daemon), one particles job placed evenly over the machines (as the seed's
// uniform partition), its step times and checksum (checked against the serial reference), and
// the daemons' loads sampled while it runs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "protocol/wire_types.h"
#include "tests/bench/testbed/load_sampler.h"

namespace drift::bench {

struct ParticleJob {
  std::uint32_t cells = 3200;
  std::uint32_t particles = 200000;
  std::uint32_t tasks = 320;
  std::uint64_t steps = 30;
};

struct TestbedRow {
  std::string name;
  std::string strategy = "diffusion";  // balance.strategy
  std::string capacity = "dynamic";    // balance.capacity
  std::string sensing = "every";       // balance.sensing
  std::vector<double> speeds;          // emulate.speed per daemon
  std::vector<std::string> loads;      // emulate.load per daemon ("" = none)
  std::uint64_t steps = 30;
  std::optional<JobSpec> job{};        // another job than the setup's particles (steps: its own)
  // Real machines instead (drift_testbed --only real): each daemon in a cgroup of its own with
  // this CPU quota in cores, no emulate.* keys at all; `speeds` is then unused.
  std::vector<double> quotas{};
};

struct TestbedSetup {
  std::filesystem::path base_config;
  std::uint16_t base_port = 18100;
  double unit_rate = 5000;   // emulate.unit_rate: particles per second at speed 1
  double eff_min = 0.95;     // balance.eff_min
  int period_ms = 1000;      // balance.period_ms
  ParticleJob job;
  std::filesystem::path keep_logs;  // when set, each row's daemon logs are copied to a folder here
  long cpu_period_us = 5000;        // real rows: the quotas' enforcement period (--cpu-period-ms)
  std::vector<std::string> settings;  // "key=value" for every daemon, after the testbed's own
};

struct RowResult {
  std::vector<double> step_s;
  std::uint64_t migrations = 0;
  std::uint32_t splits = 0, merges = 0;
  std::vector<LoadSample> samples;
  // (steps completed, seconds since the samples' start) as each progress report arrived: places
  // step ends on the samples' clock (the job starts some time after it is submitted).
  std::vector<std::pair<std::uint64_t, double>> progress;
  double wall_s = 0;
  std::string checksum;
  std::string error;  // empty when the run worked
};

RowResult run_row(const TestbedSetup& setup, const TestbedRow& row);

}  // namespace drift::bench
