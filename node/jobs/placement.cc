#include "node/jobs/placement.h"

#include <algorithm>
#include <cmath>

namespace drift {

namespace {

struct Share {
  std::uint32_t node = 0;
  double capacity = 0;
  std::uint64_t count = 0;
  std::int64_t remainder = 0;  // fractional part of the exact quota, in units of 1e-9
};

std::vector<Share> eligible_nodes(const std::vector<std::pair<std::uint32_t, double>>& nodes) {
  std::vector<Share> shares;
  for (const auto& [node, capacity] : nodes) {
    if (std::isfinite(capacity) && capacity > 0) shares.push_back({node, capacity});
  }
  std::sort(shares.begin(), shares.end(),
            [](const Share& a, const Share& b) { return a.node < b.node; });
  return shares;
}

// Largest remainder: everyone gets the floor of the quota, the seats left go to the largest
// fractional parts. Fractions are compared on a 1e-9 grid so rounding noise cannot beat the
// node-id tie-break.
void apportion(std::uint32_t tasks, std::vector<Share>& shares) {
  double total = 0;
  for (const auto& s : shares) total += s.capacity;
  std::uint64_t given = 0;
  for (auto& s : shares) {
    const double quota = static_cast<double>(tasks) * (s.capacity / total);
    const double whole = std::floor(quota);
    s.count = static_cast<std::uint64_t>(whole);
    s.remainder = std::llround((quota - whole) * 1e9);
    given += s.count;
  }
  std::vector<Share*> order;
  order.reserve(shares.size());
  for (auto& s : shares) order.push_back(&s);
  std::stable_sort(order.begin(), order.end(), [](const Share* a, const Share* b) {
    return a->remainder > b->remainder;  // stable: equal remainders stay in node-id order
  });
  for (std::size_t i = 0; given < tasks; i = (i + 1) % order.size(), ++given) ++order[i]->count;
}

}  // namespace

std::vector<std::uint32_t> place_by_capacity(
    std::uint32_t tasks, const std::vector<std::pair<std::uint32_t, double>>& nodes) {
  std::vector<Share> shares = eligible_nodes(nodes);
  if (shares.empty()) return {};
  apportion(tasks, shares);
  std::vector<std::uint32_t> placement;
  placement.reserve(tasks);
  for (const auto& s : shares) placement.insert(placement.end(), s.count, s.node);
  placement.resize(tasks);  // a quota rounded up past its exact value could overshoot by one
  return placement;
}

std::vector<std::uint32_t> place_job(std::uint32_t tasks, std::uint32_t spare,
                                     const std::vector<std::pair<std::uint32_t, double>>& nodes) {
  spare = std::min(spare, tasks);
  std::vector<std::uint32_t> placement = place_by_capacity(tasks - spare, nodes);
  std::vector<std::uint32_t> spares = place_by_capacity(spare, nodes);
  if (placement.size() != tasks - spare || spares.size() != spare) return {};
  placement.insert(placement.end(), spares.begin(), spares.end());
  return placement;
}

}  // namespace drift
