// SWIM's indirect probes (ping-req) on the suspecting side (docs/architecture.md §5): which suspects to
// probe now, through which helpers, and whether an answer belongs to a live round. Pure: time
// comes in as arguments, no I/O; the membership service sends what it returns. Not thread-safe.
//
// A member of our local group that phi made suspect is probed once it has been suspect for
// `first_after`, then every `every` while it stays suspect: each round asks `helpers` live
// members to check it (the ones nearest to it on the id ring first, since they hear its
// heartbeats; later rounds move on to the next ones). A positive answer is accepted only for a
// round of the current suspicion of that incarnation.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace drift {

class IndirectProbes {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  struct Params {
    std::size_t helpers = 3;  // 0 turns indirect probes off
    std::chrono::milliseconds first_after{100};
    std::chrono::milliseconds every{150};
  };
  struct Suspect {
    std::uint32_t node_id = 0;
    std::uint64_t incarnation = 0;
    TimePoint since{};
  };
  struct Round {
    std::uint64_t probe = 0;  // id of this round, unique for this origin
    std::uint32_t target = 0;
    std::uint64_t incarnation = 0;
    std::vector<std::uint32_t> helpers;  // never self or the target

    friend bool operator==(const Round&, const Round&) = default;
  };

  IndirectProbes(std::uint32_t self_id, Params params);

  // The rounds to send now. `suspects`: the monitored members now suspect; `live`: the members
  // that may help (alive, not self). Suspicions that ended are forgotten.
  std::vector<Round> due(const std::vector<Suspect>& suspects,
                         const std::vector<std::uint32_t>& live, TimePoint now);

  // True if a positive answer about (target, incarnation) to round `probe` counts: the round
  // belongs to the target's current suspicion, at that incarnation or an older one.
  bool answers(std::uint64_t probe, std::uint32_t target, std::uint64_t incarnation) const;

  const Params& params() const { return params_; }

  // The k helpers for a round about `target`, skipping the first `skip` in order of ring
  // distance to the target (ties: the lower id first). Exposed for tests.
  static std::vector<std::uint32_t> helpers_for(std::uint32_t target,
                                                std::vector<std::uint32_t> live, std::size_t k,
                                                std::size_t skip);

 private:
  struct Suspicion {
    std::uint64_t incarnation = 0;
    TimePoint since{};
    std::uint64_t first_probe = 0;  // 0: no round sent yet
    std::size_t rounds = 0;
    TimePoint next{};
  };

  std::uint32_t self_id_;
  Params params_;
  std::map<std::uint32_t, Suspicion> suspicions_;
  std::uint64_t next_probe_ = 0;
};

}  // namespace drift
