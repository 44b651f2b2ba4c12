// Who sends to whom in chatter: in step k, task i sends `fanout` messages to targets drawn by a
// splitmix64 generator seeded from (i, k) among the other tasks. Pure and deterministic, so every
// task (and the serial reference) knows how many messages every other task sends it per step.
#pragma once

#include <cstdint>
#include <vector>

#include "apps/chatter/chatter_params.h"

namespace drift::chatter {

// The receivers of sender's step-`step` messages, in send order (repeats allowed).
std::vector<std::uint32_t> targets(const Params& p, std::uint32_t sender, std::uint64_t step);

// How many messages `receiver` gets in `step` from all other tasks together.
std::uint64_t incoming(const Params& p, std::uint32_t receiver, std::uint64_t step);

// How many distinct tasks send to `receiver` in steps [first, last).
std::uint32_t sender_count(const Params& p, std::uint32_t receiver, std::uint64_t first,
                           std::uint64_t last);

}  // namespace drift::chatter
