// What a pingpong task passes to ctx.finish(). Task 0 (the pinger) reports the rounds it
// completed, the time from its first send to the last echo (its own steady_clock, read inside its
// handlers) and a hash of the last payload; task 1 (the echoer) the rounds it echoed.
#pragma once

#include <cstdint>

namespace drift::pingpong {

struct PingpongResult {
  std::uint64_t rounds = 0;
  std::uint64_t elapsed_ns = 0;    // task 0 only
  std::uint64_t payload_hash = 0;  // task 0 only

  friend bool operator==(const PingpongResult&, const PingpongResult&) = default;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(rounds, elapsed_ns, payload_hash);
  }
};

}  // namespace drift::pingpong
