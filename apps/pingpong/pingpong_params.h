// pingpong's job options: rounds and bytes (payload size, K/M suffixes accepted); always 2 tasks
// and 1 step. Read from a JobSpec with defaults filled in; errors name the key and value.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <drift/status.h>
#include <drift/types.h>

namespace drift::pingpong {

inline constexpr std::uint64_t kDefaultRounds = 1000;
inline constexpr std::uint64_t kDefaultBytes = 64;
inline constexpr std::uint64_t kMaxRounds = 1'000'000'000;
inline constexpr std::uint64_t kMinBytes = 8;  // the round number travels in the first 8 bytes
inline constexpr std::uint64_t kMaxBytes = 4u << 20;  // well inside a frame (net.max_frame_bytes)

struct Params {
  std::uint64_t rounds = kDefaultRounds;
  std::uint32_t bytes = static_cast<std::uint32_t>(kDefaultBytes);

  friend bool operator==(const Params&, const Params&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(rounds, bytes);
  }
};

Result<Params> parse_params(const JobSpec& spec);

// parse_params, then writes the effective values back (tasks 2, steps 1).
Status fill_and_validate(JobSpec& spec);

std::vector<std::string> option_help();

}  // namespace drift::pingpong
