#include "node/membership/indirect_probes.h"

#include <algorithm>
#include <tuple>

namespace drift {

IndirectProbes::IndirectProbes(std::uint32_t self_id, Params params)
    : self_id_(self_id), params_(params) {}

std::vector<IndirectProbes::Round> IndirectProbes::due(const std::vector<Suspect>& suspects,
                                                       const std::vector<std::uint32_t>& live,
                                                       TimePoint now) {
  std::map<std::uint32_t, Suspicion> current;
  for (const Suspect& s : suspects) {
    auto it = suspicions_.find(s.node_id);
    if (it != suspicions_.end() && it->second.incarnation == s.incarnation) {
      current.emplace(s.node_id, it->second);  // the same suspicion goes on
    } else {
      current.emplace(s.node_id, Suspicion{s.incarnation, s.since, 0, 0, s.since + params_.first_after});
    }
  }
  suspicions_ = std::move(current);
  std::vector<Round> out;
  if (params_.helpers == 0) return out;
  for (auto& [target, s] : suspicions_) {
    if (now < s.next) continue;
    std::vector<std::uint32_t> candidates;
    for (std::uint32_t id : live) {
      if (id != self_id_ && id != target) candidates.push_back(id);
    }
    if (candidates.empty()) continue;
    Round r{++next_probe_, target, s.incarnation,
            helpers_for(target, candidates, params_.helpers, s.rounds * params_.helpers)};
    if (s.first_probe == 0) s.first_probe = r.probe;
    ++s.rounds;
    s.next = now + params_.every;
    out.push_back(std::move(r));
  }
  return out;
}

bool IndirectProbes::answers(std::uint64_t probe, std::uint32_t target,
                             std::uint64_t incarnation) const {
  const auto it = suspicions_.find(target);
  if (it == suspicions_.end()) return false;
  const Suspicion& s = it->second;
  return s.first_probe != 0 && probe >= s.first_probe && probe <= next_probe_ &&
         incarnation >= s.incarnation;
}

std::vector<std::uint32_t> IndirectProbes::helpers_for(std::uint32_t target,
                                                       std::vector<std::uint32_t> live,
                                                       std::size_t k, std::size_t skip) {
  std::erase(live, target);
  std::sort(live.begin(), live.end());
  live.erase(std::unique(live.begin(), live.end()), live.end());
  const std::size_t n = live.size() + 1;  // the ring includes the target
  if (live.empty() || k == 0) return {};
  const std::size_t pos = std::lower_bound(live.begin(), live.end(), target) - live.begin();
  auto distance = [&](std::size_t i) {  // ring steps between live[i] and the target
    const std::size_t ring_i = i < pos ? i : i + 1;
    const std::size_t d = ring_i > pos ? ring_i - pos : pos - ring_i;
    return std::min(d, n - d);
  };
  std::vector<std::size_t> order(live.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::tuple(distance(a), live[a]) < std::tuple(distance(b), live[b]);
  });
  std::vector<std::uint32_t> out;
  const std::size_t take = std::min(k, live.size());
  for (std::size_t j = 0; j < take; ++j) out.push_back(live[order[(skip + j) % live.size()]]);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace drift
