// chatter's send schedule (chatter_schedule.h).
#include "apps/chatter/chatter_schedule.h"

#include <algorithm>

#include "apps/common/digest.h"

namespace drift::chatter {

std::vector<std::uint32_t> targets(const Params& p, std::uint32_t sender, std::uint64_t step) {
  apps::SplitMix64 rng(apps::hash_words({sender, step}));
  std::vector<std::uint32_t> out(p.fanout);
  for (auto& t : out) {
    t = static_cast<std::uint32_t>(rng.below(p.tasks - 1));
    if (t >= sender) ++t;  // every task but the sender
  }
  return out;
}

std::uint64_t incoming(const Params& p, std::uint32_t receiver, std::uint64_t step) {
  std::uint64_t n = 0;
  for (std::uint32_t s = 0; s < p.tasks; ++s) {
    if (s == receiver) continue;
    const auto t = targets(p, s, step);
    n += static_cast<std::uint64_t>(std::count(t.begin(), t.end(), receiver));
  }
  return n;
}

std::uint32_t sender_count(const Params& p, std::uint32_t receiver, std::uint64_t first,
                           std::uint64_t last) {
  std::vector<bool> sends(p.tasks, false);
  for (std::uint64_t k = first; k < last; ++k) {
    for (std::uint32_t s = 0; s < p.tasks; ++s) {
      if (s == receiver || sends[s]) continue;
      const auto t = targets(p, s, k);
      sends[s] = std::find(t.begin(), t.end(), receiver) != t.end();
    }
  }
  return static_cast<std::uint32_t>(std::count(sends.begin(), sends.end(), true));
}

}  // namespace drift::chatter
