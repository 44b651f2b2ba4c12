// Lifeguard's local health and dynamic suspicion (Dadgar et al., "Lifeguard: Local Health
// Awareness for More Accurate Failure Detection", 2018; docs/architecture.md §5.2). A node that
// sees itself slow — its rounds or its heartbeat thread's timer fire late, or it had to refute a
// suspicion of itself — raises a score (0..max); on-time rounds lower it again, one point per
// `calm_rounds`. The score stretches the node's own patience with others, and it is sent on every
// heartbeat so that the others are more patient with it (within a cap, MemberTable). Pure.
#pragma once

#include <chrono>
#include <cstdint>

namespace drift {

class LocalHealth {
 public:
  struct Params {
    std::chrono::milliseconds interval{100};  // the heartbeat interval
    int max_score = 8;
    int calm_rounds = 10;  // on-time rounds that take one point off
  };

  explicit LocalHealth(Params params) : params_(params) {}

  // One round; `lateness` is how much later than due it (or the heartbeat thread) ran. Later than
  // half an interval counts against us.
  void round(std::chrono::milliseconds lateness);
  // We had to refute a suspicion of ourselves: someone could not hear us in time.
  void refuted() { raise(); }

  int score() const { return score_; }

 private:
  void raise();

  Params params_;
  int score_ = 0;
  int calm_ = 0;
};

// How long a suspect has before it is declared dead: from `max` with no independent confirmation
// down to `min` once `expected` other members suspect it too, on a log curve (Lifeguard's dynamic
// suspicion). With nobody else to confirm (expected 0) it is `min`.
std::chrono::milliseconds suspicion_timeout(std::chrono::milliseconds min,
                                            std::chrono::milliseconds max,
                                            std::size_t confirmations, std::size_t expected);

}  // namespace drift
