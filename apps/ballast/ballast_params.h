// ballast's job options: state (bytes of state per task, K/M/G suffixes accepted), work (busy
// microseconds per task and step), steps and tasks, read from a JobSpec with defaults filled in
// and every value checked; errors name the key and value (apps/common/app_params.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <drift/status.h>
#include <drift/types.h>

namespace drift::ballast {

inline constexpr std::uint64_t kDefaultStateBytes = 1u << 20;
inline constexpr std::uint64_t kDefaultWorkUs = 1000;
inline constexpr std::uint64_t kDefaultSteps = 1000;
inline constexpr std::uint32_t kDefaultTasks = 2;
inline constexpr std::uint64_t kMinStateBytes = 8;
inline constexpr std::uint64_t kMaxStateBytes = 1ull << 30;
inline constexpr std::uint64_t kMaxWorkUs = 60'000'000;
inline constexpr std::uint64_t kMaxSteps = 1'000'000'000;
inline constexpr std::uint32_t kMaxTasks = 1024;

struct Params {
  std::uint64_t state_bytes = kDefaultStateBytes;
  std::uint64_t work_us = kDefaultWorkUs;
  std::uint64_t steps = kDefaultSteps;
  std::uint32_t tasks = kDefaultTasks;

  // 64-bit words of state per task: state_bytes / 8, rounded up.
  std::uint64_t words() const { return (state_bytes + 7) / 8; }

  friend bool operator==(const Params&, const Params&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(state_bytes, work_us, steps, tasks);
  }
};

Result<Params> parse_params(const JobSpec& spec);

// parse_params, then writes the effective values back (state in plain bytes), so every node sees
// the same spec.
Status fill_and_validate(JobSpec& spec);

std::vector<std::string> option_help();

}  // namespace drift::ballast
