// chatter's job options: tasks, steps, fanout (messages per task and step), payload (filler bytes
// per message) and work (busy microseconds per task and step), read from a JobSpec with defaults
// filled in and every value checked; errors name the key and value (apps/common/app_params.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <drift/status.h>
#include <drift/types.h>

namespace drift::chatter {

inline constexpr std::uint32_t kDefaultTasks = 8;
inline constexpr std::uint64_t kDefaultSteps = 100;
inline constexpr std::uint32_t kDefaultFanout = 4;
inline constexpr std::uint32_t kDefaultPayload = 64;
inline constexpr std::uint32_t kMaxTasks = 1024;  // the serial reference keeps tasks^2 counters
inline constexpr std::uint64_t kMaxSteps = 1'000'000'000;
inline constexpr std::uint32_t kMaxFanout = 1024;
inline constexpr std::uint32_t kMaxPayload = 1u << 20;
inline constexpr std::uint64_t kMaxWorkUs = 60'000'000;

struct Params {
  std::uint32_t tasks = kDefaultTasks;
  std::uint64_t steps = kDefaultSteps;
  std::uint32_t fanout = kDefaultFanout;
  std::uint32_t payload = kDefaultPayload;
  std::uint64_t work_us = 0;

  friend bool operator==(const Params&, const Params&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(tasks, steps, fanout, payload, work_us);
  }
};

Result<Params> parse_params(const JobSpec& spec);

// parse_params, then writes the effective values back, so every node sees the same spec.
Status fill_and_validate(JobSpec& spec);

std::vector<std::string> option_help();

}  // namespace drift::chatter
