// particles' job options: cells in the box, particles, seed, drift (a constant acceleration
// towards the right wall), steps and tasks, read from a JobSpec with defaults filled in and every
// value checked; errors name the key and value (apps/common/app_params.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <drift/status.h>
#include <drift/types.h>

namespace drift::particles {

inline constexpr const char* kApp = "particles";  // the application's name, in errors too
inline constexpr std::uint64_t kDefaultCells = 4096;
inline constexpr std::uint64_t kDefaultParticles = 100'000;
inline constexpr std::uint64_t kDefaultSeed = 1;
inline constexpr std::uint64_t kDefaultDrift = 200;  // micro-cells per step^2
inline constexpr std::uint64_t kDefaultSteps = 100;
inline constexpr std::uint32_t kDefaultTasks = 4;
inline constexpr std::uint64_t kMaxCells = 1u << 24;
inline constexpr std::uint64_t kMaxParticles = 1u << 24;
inline constexpr std::uint64_t kMaxDrift = 100'000;  // 0.1 cells per step^2
inline constexpr std::uint64_t kMaxSteps = 1'000'000'000;
inline constexpr std::uint32_t kMaxTasks = 1u << 20;

struct Params {
  std::uint64_t cells = kDefaultCells;
  std::uint64_t particles = kDefaultParticles;
  std::uint64_t seed = kDefaultSeed;
  std::uint64_t drift = kDefaultDrift;  // micro-cells per step^2, towards the right wall
  std::uint64_t steps = kDefaultSteps;
  std::uint32_t tasks = kDefaultTasks;

  // The acceleration in cells per step^2 (correctly rounded, so the same on every node).
  double acceleration() const { return static_cast<double>(drift) / 1e6; }

  friend bool operator==(const Params&, const Params&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(cells, particles, seed, drift, steps, tasks);
  }
};

// Reads spec.params (cells, particles, seed, drift), spec.steps and spec.tasks (0 = default) and
// checks them: every task needs at least one cell (tasks <= cells).
Result<Params> parse_params(const JobSpec& spec);

// parse_params, then writes the effective values back, so every node sees the same spec.
Status fill_and_validate(JobSpec& spec);

std::vector<std::string> option_help();

}  // namespace drift::particles
